#pragma once
// Every benchmark connection holds a descriptor (two with an embedded mock in the same process:
// its side of each connection too). Desktop sessions start processes with a soft limit of 1024
// open descriptors while the hard limit is far higher, so a C=1024 sweep failed two thirds of its
// requests with "too many open files" unless the user knew to run `ulimit -n` first. The load
// generator raises the soft limit to the hard one (what Go's runtime does for every program) and
// grows the descriptor table before a phase: growing it while connections open makes the kernel
// wait for an RCU grace period, and every thread allocating a descriptor meanwhile waits too —
// the IO threads mid-phase, or the GUI thread.
namespace sb {

// Raises the soft RLIMIT_NOFILE to the hard limit, at most 2^20 (once is enough; later calls
// are cheap).
// Returns the soft limit now in force, or -1 where there is no such limit.
long raiseDescriptorLimit();

// Raises the limit as above, then makes the descriptor table hold descriptor numbers up to
// `highest` (capped by the limit), so that opening that many later does not grow it. Returns
// the soft limit in force, as raiseDescriptorLimit() does.
long reserveDescriptors(long highest);

} // namespace sb
