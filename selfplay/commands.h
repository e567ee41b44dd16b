// SPDX-License-Identifier: MIT
// The commands of hansu-selfplay, one file each (cmd_*.c), dispatched by selfplay_main.c. Each
// takes its own argv (argv[0] is the command's name), reads its flags (engine/flags.h), prints
// and returns the process's exit status: 0 done, 1 failed, 2 a bad command line.
#pragma once

/// Plays self-play games into a run folder (the default command; under MPI every rank runs it).
int cmd_play(int argc, char **argv);

/// merge -o OUT.h5 [--force] DIR|FILE...: shards of one run combined into one file.
int cmd_merge(int argc, char **argv);

/// verify DIR|FILE...: every game replayed and checked.
int cmd_verify(int argc, char **argv);

/// show FILE [ROW...]: FEN, move and score of stored positions.
int cmd_show(int argc, char **argv);

/// digest DIR|FILE...: schema-1 files given a digest, after replay.
int cmd_digest(int argc, char **argv);

/// export [--pgn OUT.pgn] [--plain OUT.plain] DIR|FILE... [--games SEL] [--event TEXT]: games
/// as PGN, positions as Fairy-Stockfish's .plain training records.
int cmd_export(int argc, char **argv);

/// gib [--pgn OUT.pgn] [--store OUT.h5] [--openings OUT.fen] [--opening-plies N] [--event TEXT]
/// DIR|FILE...: .gib janggi records imported (docs/gib.md); 1 when a file was refused (the
/// others still imported).
int cmd_gib(int argc, char **argv);

/// label --out DIR [--nodes N] [--threads T] ... PGN...: games of PGN files stored as a run
/// folder, their positions scored by Hansu's search at fixed nodes (docs/data-format.md,
/// "Labelled games"); 130 when interrupted (the finished shards kept, --resume continues).
int cmd_label(int argc, char **argv);

/// Reads the command line of a command that takes words only (files, rows) and --help: the
/// words are (*words)[0..*n), argv's own strings in a malloc'ed array (free it). Returns -1 to
/// go on; else the exit status after printing: 0 for --help (usage_line to stdout), 2 for a
/// flag or fewer than min words (the error and usage_line to stderr).
int cmd_read_words(const char *usage_line, int argc, char **argv, int min, char ***words, int *n);
