// SPDX-License-Identifier: MIT
// The front ends' flag parser (see flags.h).
#include "flags.h"

#include <assert.h>
#include <string.h>

#include "cli.h"

static const Flag *find(const Flag *table, size_t n, const char *name, size_t len) {
    for (size_t i = 0; i < n; i++)
        if (table[i].name && strlen(table[i].name) == len && !strncmp(table[i].name, name, len))
            return &table[i];
    return NULL;
}

static bool takes_value(const Flag *f) {
    return f->kind != FLAG_BOOL && f->kind != FLAG_GROUP && (f->kind != FLAG_CALL || f->value);
}

// Stores an integer into a field of size 4 or 8 (int / int64_t / uint64_t / size_t).
static void store_int(void *dest, const Flag *f, int64_t v) {
    char *p = (char *)dest + f->offset;
    if (f->size == sizeof(int)) {
        int x = (int)v;
        memcpy(p, &x, sizeof x);
    } else {
        assert(f->size == sizeof(int64_t));
        memcpy(p, &v, sizeof v);
    }
}

// "'v' is not a, b or c" for a FLAG_ENUM value.
static Status enum_error(const Flag *f, const char *value, ErrorInfo *err) {
    char list[256] = "";
    size_t len = 0, count = 0;
    while (f->choices[count])
        count++;
    for (size_t i = 0; i < count && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                i == 0          ? ""
                                : i + 1 < count ? ", "
                                                : " or ",
                                f->choices[i]);
    return error_set(err, STATUS_SYNTAX, "%s: '%s' is not %s", f->name, value, list);
}

// Checks value and stores it as f says.
static Status apply(const Flag *f, const char *value, void *dest, ErrorInfo *err) {
    char *p = (char *)dest + f->offset;
    Status st = STATUS_OK;
    switch (f->kind) {
    case FLAG_BOOL: {
        bool b = !f->off;
        memcpy(p, &b, sizeof b);
        break;
    }
    case FLAG_INT: {
        int64_t v = 0;
        if ((st = cli_parse_i64(f->name, value, f->lo, f->hi, &v, err)) == STATUS_OK)
            store_int(dest, f, v);
        break;
    }
    case FLAG_UINT: {
        uint64_t v = 0;
        if ((st = cli_parse_u64(f->name, value, f->max, &v, err)) == STATUS_OK)
            store_int(dest, f, (int64_t)v);
        break;
    }
    case FLAG_DOUBLE:
        assert(f->size == sizeof(double));
        st = cli_parse_double(f->name, value, f->dlo, f->dhi, (double *)(void *)p, err);
        break;
    case FLAG_PATH:
        if (!value[0])
            return error_set(err, STATUS_SYNTAX, "%s: empty path", f->name);
        // fall through
    case FLAG_STRING:
        assert(f->size == sizeof(const char *));
        memcpy(p, &value, sizeof value);
        break;
    case FLAG_ENUM: {
        int i = 0;
        while (f->choices[i] && strcmp(f->choices[i], value))
            i++;
        if (!f->choices[i])
            return enum_error(f, value, err);
        store_int(dest, f, i);
        break;
    }
    case FLAG_CALL:
    case FLAG_GROUP:
        st = f->set(f, value, dest, err);
        break;
    case FLAG_SECTION:
        assert(!"a section is not a flag");
        break;
    }
    if (st == STATUS_OK && f->given) {
        bool b = true;
        memcpy((char *)dest + f->given - 1, &b, sizeof b);
    }
    return st;
}

Status flags_parse(const Flag *table, size_t n, int argc, char **argv, int first, void *dest,
                   FlagResult *res, ErrorInfo *err) {
    res->help = false;
    res->npos = 0;
    const Flag *group = NULL; // the open FLAG_GROUP, taking the words that follow it
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || !a[1]) { // a word ("-" alone is one too: standard output)
            Status st = STATUS_OK;
            if (group)
                st = group->set(group, a, dest, err);
            else if (res->pos)
                res->pos[res->npos++] = argv[i];
            else
                st = error_set(err, STATUS_SYNTAX, "unexpected argument '%s'", a);
            if (st != STATUS_OK)
                return st;
            continue;
        }
        group = NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            res->help = true;
            return STATUS_OK;
        }
        const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
        const Flag *f = find(table, n, a, eq ? (size_t)(eq - a) : strlen(a));
        if (!f)
            return error_set(err, STATUS_SYNTAX, "unknown option %.*s",
                             eq ? (int)(eq - a) : (int)strlen(a), a);
        assert(f->help && f->help[0]); // every flag has its help line
        const char *value = NULL;
        if (takes_value(f)) {
            if (!eq && i + 1 >= argc)
                return error_set(err, STATUS_SYNTAX, "%s needs a value", f->name);
            value = eq ? eq + 1 : argv[++i];
        } else if (eq)
            return error_set(err, STATUS_SYNTAX, "%s takes no value", f->name);
        Status st = apply(f, value, dest, err);
        if (st != STATUS_OK)
            return st;
        if (f->kind == FLAG_GROUP)
            group = f;
    }
    return STATUS_OK;
}

// Writes text, every line after the first indented to column.
static void help_text(FILE *f, const char *text, int column) {
    for (const char *p = text; *p; p++) {
        fputc(*p, f);
        if (*p == '\n' && p[1])
            fprintf(f, "%*s", column, "");
    }
    fputc('\n', f);
}

void flags_help_lines(FILE *f, const Flag *table, size_t n, int column) {
    for (size_t i = 0; i < n; i++) {
        const Flag *fl = &table[i];
        if (fl->kind == FLAG_SECTION) {
            fprintf(f, "%s\n", fl->help);
            continue;
        }
        assert(fl->help && fl->help[0]);
        int len = fprintf(f, "  %s%s%s", fl->name, fl->meta ? " " : "", fl->meta ? fl->meta : "");
        if (fl->help[0] != '\n') // else the help starts on the next line
            fprintf(f, "%*s", len < column ? column - len : 1, "");
        help_text(f, fl->help, column);
    }
}

void flags_help(FILE *f, const Flag *table, size_t n, int column) {
    flags_help_lines(f, table, n, column);
    // The parser's own flag, in every table, and its one rule a person must know.
    fprintf(f, "  --help%*sthis text\n", column > 8 ? column - 8 : 1, "");
    fputs(FLAGS_REPEAT_NOTE "\n", f);
}
