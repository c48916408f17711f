# Sourced by scripts/up.sh and scripts/down.sh: is a pid the emulator that up.sh started on this database?
#
# up.sh starts `apinizer-emulator serve --host 127.0.0.1 --port PORT --db DB_FILE` and writes its pid
# into the state folder. Pids get reused (pid_max is 32,768 on many machines, and a test run starts
# processes by the thousand), so a stale pid file may by now name any process, even another folder's
# emulator (another test worker's, another checkout's). Only a process whose command line ends with this
# folder's `--db DB_FILE` is ours to reuse or to stop.

# apinizer_is_our_emulator PID DB_FILE: exit status 0 if PID runs apinizer-emulator on DB_FILE.
apinizer_is_our_emulator() {
  local pid="$1" db_file="$2" args
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  # A zombie has no command line, so it is never ours. Linux's /proc first, ps elsewhere: beside the
  # e2e test of examples/multiple-gateways, `ps -p PID -o args=` took a live emulator of this folder for
  # "not ours" in 2 runs of 2 (why is not known), the command line read from /proc in none of 3.
  if [ -r "/proc/$pid/cmdline" ]; then
    args="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" || return 1
    args="${args% }"
  else
    args="$(ps -p "$pid" -o args= 2>/dev/null)" || return 1
  fi
  [[ "$args" == *apinizer-emulator* && "$args" == *" --db $db_file" ]]
}
