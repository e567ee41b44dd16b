// SPDX-License-Identifier: MIT
// Files named by the user (engine/files.h, issue 39): lines read whole, never in pieces; outputs
// that never replace what their name stands for: a link is followed to its target (in another
// folder), a FIFO or device is written into, a folder or socket refused, and a write that fails
// (a full device) is reported with the name and leaves no temporary file.
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"
#include "files.h"

static char dir[] = "/tmp/hansu-test-files-XXXXXX";

// dir/name into buf.
static const char *in_dir(char *buf, size_t cap, const char *name) {
    snprintf(buf, cap, "%s/%s", dir, name);
    return buf;
}

// The text of the file at path (at most 63 bytes).
static const char *contents(const char *path) {
    static char got[64];
    memset(got, 0, sizeof got);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_true(fread(got, 1, sizeof got - 1, f) < sizeof got);
    fclose(f);
    return got;
}

static mode_t kind(const char *path) {
    struct stat sb;
    assert_int_equal(lstat(path, &sb), 0);
    return sb.st_mode & S_IFMT;
}

static bool exists(const char *path) {
    struct stat sb;
    return lstat(path, &sb) == 0;
}

static void test_read_line(void **state) {
    (void)state;
    char text[] = "ab\r\nxxxxxxxxxx\n\nabcde\r\nlast", buf[6];
    FILE *f = fmemopen(text, strlen(text), "r");
    assert_non_null(f);
    assert_int_equal(files_read_line(f, buf, sizeof buf), 2);
    assert_string_equal(buf, "ab");
    // Too long: its start, its whole length, and the rest of it is not the next line.
    assert_int_equal(files_read_line(f, buf, sizeof buf), 10);
    assert_string_equal(buf, "xxxxx");
    assert_int_equal(files_read_line(f, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    assert_int_equal(files_read_line(f, buf, sizeof buf), 5); // fits without its "\r"
    assert_string_equal(buf, "abcde");
    assert_int_equal(files_read_line(f, buf, sizeof buf), 4); // no newline at the end
    assert_string_equal(buf, "last");
    assert_int_equal(files_read_line(f, buf, sizeof buf), -1);
    fclose(f);
}

// A link is followed: its target, in another folder, gets the output; the link stays a link and
// no temporary is left in either folder. A dangling link makes its target; a chain of links
// (relative ones read from their own folder) ends at the last one's target.
static void test_link_followed(void **state) {
    (void)state;
    char a[160], b[160], real[160], link[160], tmp[170], chain[160], dang[160], made[160];
    ErrorInfo err;
    assert_int_equal(mkdir(in_dir(a, sizeof a, "a"), 0755), 0);
    assert_int_equal(mkdir(in_dir(b, sizeof b, "b"), 0755), 0);
    in_dir(real, sizeof real, "b/real.json");
    in_dir(link, sizeof link, "a/link.json");
    assert_int_equal(cli_write_atomic(real, "old\n", 4, &err), STATUS_OK);
    assert_int_equal(symlink("../b/real.json", link), 0);
    assert_int_equal(cli_check_writable("--json", link, &err), STATUS_OK);
    assert_int_equal(cli_write_atomic(link, "new\n", 4, &err), STATUS_OK);
    assert_int_equal(kind(link), S_IFLNK);
    assert_string_equal(contents(real), "new\n");
    snprintf(tmp, sizeof tmp, "%s.tmp", link);
    assert_false(exists(tmp));
    snprintf(tmp, sizeof tmp, "%s.tmp", real);
    assert_false(exists(tmp));
    assert_int_equal(symlink("link.json", in_dir(chain, sizeof chain, "a/chain.json")), 0);
    assert_int_equal(cli_write_atomic(chain, "chain\n", 6, &err), STATUS_OK);
    assert_int_equal(kind(chain), S_IFLNK);
    assert_int_equal(kind(link), S_IFLNK);
    assert_string_equal(contents(real), "chain\n");
    assert_int_equal(symlink("../b/made.json", in_dir(dang, sizeof dang, "a/dangling.json")), 0);
    assert_int_equal(cli_write_atomic(dang, "made\n", 5, &err), STATUS_OK);
    assert_int_equal(kind(dang), S_IFLNK);
    assert_string_equal(contents(in_dir(made, sizeof made, "b/made.json")), "made\n");
    // A stream given up leaves the target as it was and no temporary.
    OutputFile o;
    assert_int_equal(files_output_open(link, &o, &err), STATUS_OK);
    fputs("half", o.f);
    files_output_abort(&o);
    assert_string_equal(contents(real), "chain\n");
    assert_false(exists(tmp));
    unlink(dang), unlink(made), unlink(chain), unlink(link), unlink(real), rmdir(a), rmdir(b);
}

static void on_alarm(int sig) {
    (void)sig;
    _exit(99); // a FIFO nobody read: fail rather than block the suite
}

// A FIFO is written into while a reader reads it, and stays a FIFO.
static void test_fifo_written_into(void **state) {
    (void)state;
    char fifo[160], tmp[170];
    ErrorInfo err;
    assert_int_equal(mkfifo(in_dir(fifo, sizeof fifo, "fifo"), 0644), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) { // the reader: exits with the number of bytes read, 6 for "hello\n"
        signal(SIGALRM, on_alarm);
        alarm(10);
        int fd = open(fifo, O_RDONLY);
        char buf[64];
        ssize_t n, total = 0;
        while (fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0)
            total += n;
        _exit(total == 6 && memcmp(buf, "hello\n", 6) == 0 ? 6 : 1);
    }
    signal(SIGALRM, on_alarm);
    alarm(10);
    assert_int_equal(cli_check_writable("--json", fifo, &err), STATUS_OK);
    assert_int_equal(cli_write_atomic(fifo, "hello\n", 6, &err), STATUS_OK);
    alarm(0);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 6);
    assert_int_equal(kind(fifo), S_IFIFO);
    snprintf(tmp, sizeof tmp, "%s.tmp", fifo);
    assert_false(exists(tmp));
    unlink(fifo);
}

// A folder and a socket are refused by name and left as they were.
static void test_folder_socket_refused(void **state) {
    (void)state;
    char sock[160], tmp[170];
    ErrorInfo err;
    assert_int_equal(cli_write_atomic(dir, "x", 1, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, ": a folder, not a file"));
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%.100s", in_dir(sock, sizeof sock, "sock"));
    assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof addr), 0);
    assert_int_equal(cli_write_atomic(sock, "x", 1, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "sock: a socket, not a file"));
    assert_int_equal(cli_check_writable("--json", sock, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "--json "));
    assert_non_null(strstr(err.msg, "sock: a socket, not a file"));
    assert_int_equal(kind(sock), S_IFSOCK);
    snprintf(tmp, sizeof tmp, "%s.tmp", sock);
    assert_false(exists(tmp));
    close(fd);
    unlink(sock);
}

// Devices, on private nodes (root only: mknod): /dev/null's twin takes the output and stays a
// device; /dev/full's reports "No space left on device" with its name, stays a device, and no
// temporary is left. Skipped where nodes cannot be made or opened.
static void test_devices_written_into(void **state) {
    (void)state;
    char null[160], full[160], link[160], tmp[170];
    ErrorInfo err;
    if (mknod(in_dir(null, sizeof null, "null"), S_IFCHR | 0666, makedev(1, 3)) != 0 ||
        mknod(in_dir(full, sizeof full, "full"), S_IFCHR | 0666, makedev(1, 7)) != 0) {
        unlink(null);
        skip();
    }
    int fd = open(null, O_WRONLY);
    if (fd < 0) { // a nodev mount
        unlink(null), unlink(full);
        skip();
    }
    close(fd);
    assert_int_equal(cli_check_writable("--json", null, &err), STATUS_OK);
    assert_int_equal(cli_write_atomic(null, "{}\n", 3, &err), STATUS_OK);
    assert_int_equal(kind(null), S_IFCHR);
    assert_int_equal(symlink("null", in_dir(link, sizeof link, "to-null")), 0);
    assert_int_equal(cli_write_atomic(link, "{}\n", 3, &err), STATUS_OK);
    assert_int_equal(kind(link), S_IFLNK);
    assert_int_equal(kind(null), S_IFCHR);
    assert_int_equal(cli_write_atomic(full, "{}\n", 3, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "full: No space left on device"));
    assert_int_equal(kind(full), S_IFCHR);
    // A stream too: the commit reports the failed write.
    OutputFile o;
    assert_int_equal(files_output_open(full, &o, &err), STATUS_OK);
    fputs("fen ...\n", o.f);
    assert_int_equal(files_output_commit(&o, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "full: No space left on device"));
    assert_int_equal(kind(full), S_IFCHR);
    snprintf(tmp, sizeof tmp, "%s.tmp", full);
    assert_false(exists(tmp));
    snprintf(tmp, sizeof tmp, "%s.tmp", null);
    assert_false(exists(tmp));
    unlink(link), unlink(null), unlink(full);
}

static int setup(void **state) {
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    return rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_line),
        cmocka_unit_test(test_link_followed),
        cmocka_unit_test(test_fifo_written_into),
        cmocka_unit_test(test_folder_socket_refused),
        cmocka_unit_test(test_devices_written_into),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
