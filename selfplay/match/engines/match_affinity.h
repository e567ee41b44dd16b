// SPDX-License-Identifier: MIT
// Honest timing (issue 43): each game's engines pinned to cores of their own (--affinity), and a
// warning when the games at once want more cores than the machine gives this process.
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "status.h"
#include "uci_child.h"

enum { MATCH_CPUS_MAX = 1024 };

/// The CPUs this process may run on (its affinity mask), in order, into cpus (up to max); the
/// count (1 when the mask cannot be read).
int match_affinity_cpus(int *cpus, int max);

/// The most threads any of the n engines searches with: its option.Threads (any case), else 1.
int match_affinity_threads(const EngineSpec *e, int n);

/// True when at_once games of `threads` threads each want more than ncpus cores, with a warning
/// naming the numbers in msg.
bool match_affinity_overbooked(int at_once, int threads, int ncpus, char *msg, size_t len);

/// Pins every thread of process pid to cpus[0 .. count-1] (its threads found in /proc/PID/task).
/// STATUS_IO naming the pid when a thread cannot be pinned; nothing for pid 0.
Status match_affinity_pin(int pid, const int *cpus, int count);
