//go:build !linux

package main

import "os/exec"

// dieWithParent: elsewhere the CLI's kill of the process group ends the legacy host too.
func dieWithParent(*exec.Cmd) {}
