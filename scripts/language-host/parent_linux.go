package main

import (
	"os/exec"
	"syscall"
)

// dieWithParent: the legacy host ends with this one, whatever ends it (the CLI kills the
// process group, but a SIGKILL of this process alone must not leave the legacy host behind).
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
