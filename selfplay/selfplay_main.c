// SPDX-License-Identifier: MIT
// hansu-selfplay: dispatches to its commands (commands.h), each in a file of its own: play
// (the default), merge, verify, show, digest, export, gib and label.
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cluster.h"
#include "commands.h"

// The commands named by their first word; play is the default.
static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} COMMANDS[] = {
    {"merge", cmd_merge},   {"verify", cmd_verify}, {"show", cmd_show},   {"digest", cmd_digest},
    {"export", cmd_export}, {"gib", cmd_gib},       {"label", cmd_label},
};

int main(int argc, char **argv) {
    cli_init();
    for (size_t i = 0; argc > 1 && i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (strcmp(argv[1], COMMANDS[i].name) == 0)
            return COMMANDS[i].run(argc - 1, argv + 1);
    ErrorInfo err;
    if (cluster_init(&argc, &argv, &err) != STATUS_OK) {
        fprintf(stderr, "hansu-selfplay: %s\n", err.msg);
        return 1;
    }
    int rc = cmd_play(argc, argv);
    cluster_finish();
    return rc;
}
