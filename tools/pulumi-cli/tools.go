//go:build tools

// Package tools pins the Pulumi CLI that scripts/build-pulumi.sh builds: the blank imports keep the CLI's
// main package and the SDK module (whose version package the build stamps) in this module's graph.
package tools

import (
	_ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
	_ "github.com/pulumi/pulumi/sdk/v3/go/common/version"
)
