// SPDX-License-Identifier: MIT
// Cores for the match's games (match_affinity.h): the process's CPUs, each game slot's engines
// pinned to a block of them.
#define _GNU_SOURCE
#include "match_affinity.h"

#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int match_affinity_cpus(int *cpus, int max) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        cpus[0] = 0;
        return 1;
    }
    int n = 0;
    for (int c = 0; c < CPU_SETSIZE && n < max; c++)
        if (CPU_ISSET(c, &set))
            cpus[n++] = c;
    return n ? n : (cpus[0] = 0, 1);
}

int match_affinity_threads(const EngineSpec *e, int n) {
    int most = 1;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < e[i].noptions; k++)
            if (strcasecmp(e[i].opt_name[k], "Threads") == 0 && atoi(e[i].opt_value[k]) > most)
                most = atoi(e[i].opt_value[k]);
    return most;
}

bool match_affinity_overbooked(int at_once, int threads, int ncpus, char *msg, size_t len) {
    if (at_once * threads <= ncpus)
        return false;
    snprintf(msg, len,
             "%d games at once x %d thread%s per engine want %d cores, more than the %d this "
             "process may use: the engines share cores and their clocks run slower than alone",
             at_once, threads, threads == 1 ? "" : "s", at_once * threads, ncpus);
    return true;
}

Status match_affinity_pin(int pid, const int *cpus, int count) {
    if (pid <= 0)
        return STATUS_OK;
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int i = 0; i < count; i++)
        CPU_SET(cpus[i], &set);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *d = opendir(path);
    if (!d)
        return sched_setaffinity(pid, sizeof set, &set) == 0 ? STATUS_OK : STATUS_IO;
    Status st = STATUS_OK;
    for (struct dirent *t; (t = readdir(d));) {
        int tid = atoi(t->d_name);
        if (tid > 0 && sched_setaffinity(tid, sizeof set, &set) != 0)
            st = STATUS_IO; // a thread that ended meanwhile, or not ours to pin
    }
    closedir(d);
    return st;
}
