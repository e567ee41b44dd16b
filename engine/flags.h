// SPDX-License-Identifier: MIT
// The one command-line flag parser of the front ends (hansu, hansu-selfplay and its
// subcommands, hansu-match, hansu-tune): each flag is declared once in a table with its name,
// value kind and range, destination and help line; the parser and the help text both read that
// table, so a flag cannot exist without its check or its help line.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "status.h"

/// What a flag takes and where the value goes (dest: the struct given to flags_parse).
typedef enum {
    FLAG_SECTION, // not a flag: a heading of the help text (help is the heading)
    FLAG_BOOL,    // no value: the bool at offset becomes !off (true, or false with .off)
    FLAG_INT,     // signed integer in lo..hi (cli_parse_i64): an int, or an int64_t (size 8)
    FLAG_UINT,    // unsigned integer in 0..max (cli_parse_u64): an int/unsigned, or 64 bits
    FLAG_DOUBLE,  // finite number in dlo..dhi (cli_parse_double): a double
    FLAG_STRING,  // text, kept as the argv pointer: a const char *
    FLAG_PATH,    // a file or folder name, not empty: a const char *
    FLAG_ENUM,    // one of choices (NULL-terminated), exact: the int index of the choice
    FLAG_CALL,    // the setter checks and stores the value (NULL for a flag without value)
    FLAG_GROUP,   // no value of its own: the setter gets NULL at the flag, then each following
                  // word that does not start with '-' (e.g. --engine cmd=X name=Y)
} FlagKind;

typedef struct Flag Flag;

/// A FLAG_CALL / FLAG_GROUP setter: stores value (NULL: see FlagKind) into dest. Errors name
/// the flag (flag->name), as the parser's own do.
typedef Status (*FlagSetter)(const Flag *flag, const char *value, void *dest, ErrorInfo *err);

struct Flag {
    const char *name; // "--games" (or "-o"); NULL for FLAG_SECTION
    FlagKind kind;
    size_t offset, size;        // destination in dest: FLAG_DEST(Type, field)
    int64_t lo, hi;             // FLAG_INT range
    uint64_t max;               // FLAG_UINT range 0..max
    double dlo, dhi;            // FLAG_DOUBLE range
    const char *const *choices; // FLAG_ENUM
    FlagSetter set;             // FLAG_CALL, FLAG_GROUP
    bool off;                   // FLAG_BOOL stores false
    bool value;                 // FLAG_CALL takes a value
    size_t given;               // FLAG_GIVEN(Type, field): a bool set when the flag is given
    const char *meta;           // the value's name in the help text ("N", "FILE")
    const char *help;           // the help text ('\n' starts an indented continuation line)
};

/// The destination of a flag: field of struct type Type (the dest of flags_parse).
#define FLAG_DEST(Type, field) .offset = offsetof(Type, field), .size = sizeof(((Type *)0)->field)
/// A bool field of Type set when the flag is given (0: none).
#define FLAG_GIVEN(Type, field) .given = offsetof(Type, field) + 1

/// What flags_parse found besides the flags.
typedef struct FlagResult {
    bool help;  // --help or -h was given (parsing stopped there)
    int npos;   // positional words, in order, in pos
    char **pos; // the caller's array of at least argc entries, or NULL: a word is refused
} FlagResult;

/// Parses argv[first..argc) against table[0..n) into dest. "--name=value" is read as
/// "--name value"; a later occurrence of a flag replaces an earlier one (a script appends its
/// overrides). Errors (STATUS_SYNTAX or STATUS_RANGE, one line naming the flag): "unknown
/// option --x", "--x needs a value", "unexpected argument 'w'" (no pos array), a bad value as
/// cli_parse_* words it, "--x: 'v' is not a or b" (FLAG_ENUM), "--x: empty path", or the
/// setter's own.
Status flags_parse(const Flag *table, size_t n, int argc, char **argv, int first, void *dest,
                   FlagResult *res, ErrorInfo *err);

/// The rule for a flag given twice, as every help text states it (flags_parse; hansu-nnue's
/// own parser keeps it too).
#define FLAGS_REPEAT_NOTE                                                                          \
    "A flag given twice counts once, with its last value (a script puts its overrides last)."

/// Prints one line per flag of table (and its sections) to f: "  --name META" padded to
/// column, then the help text, continuation lines indented to column; last, "--help" and
/// FLAGS_REPEAT_NOTE.
void flags_help(FILE *f, const Flag *table, size_t n, int column);

/// The same without the last "--help" line (for a tool listing several tables).
void flags_help_lines(FILE *f, const Flag *table, size_t n, int column);

/// The entries of a table array.
#define FLAGS_COUNT(table) (sizeof(table) / sizeof((table)[0]))
