"""apinizer-pulumi."""
