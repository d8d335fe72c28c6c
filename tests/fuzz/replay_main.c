/* Runs a fuzz target's entry point over every file of a corpus directory, so
 * the crafted cases are checked by `make check` with any compiler (and under
 * ASan/UBSan in `make check-asan`); libFuzzer itself is used by `make fuzz`.
 *
 * One check per target: a PASS with the number of files replayed when none
 * crashed, else a FAIL naming each file that did. Each file runs in a child
 * of its own, so that a crash (a signal, a sanitizer's report, a leak found
 * at the child's exit) names its file and the files after it still run. */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A case that runs longer than this is taken for a hang (SIGALRM); a
 * child that cannot read its file exits with REPLAY_UNREADABLE. */
enum { REPLAY_CASE_SECONDS = 60, REPLAY_UNREADABLE = 3 };

static uint8_t *replay_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	uint8_t *buf = NULL;
	size_t cap = 0;
	*len = 0;
	for (;;) {
		if (*len == cap) {
			cap = cap ? cap * 2 : 65536;
			uint8_t *nb = realloc(buf, cap);
			if (!nb)
				break;
			buf = nb;
		}
		size_t got = fread(buf + *len, 1, cap - *len, f);
		if (got == 0)
			break;
		*len += got;
	}
	fclose(f);
	return buf;
}

/* Replays PATH in a child; returns 1 when the child ended cleanly, else
 * prints a FAIL naming the file and returns 0. */
static int replay_one(const char *target, const char *path)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		printf("FAIL: %s: cannot fork to replay %s\n", target, path);
		return 0;
	}
	if (pid == 0) {
		alarm(REPLAY_CASE_SECONDS);
		size_t len = 0;
		uint8_t *buf = replay_read(path, &len);
		if (!buf)
			exit(REPLAY_UNREADABLE);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		exit(0); /* exit, not _exit: LeakSanitizer checks the case here */
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 1;
	if (WIFSIGNALED(st))
		printf("FAIL: %s: %s killed by signal %d (%s)\n", target, path, WTERMSIG(st),
		       WTERMSIG(st) == SIGALRM ? "over the case's deadline" : strsignal(WTERMSIG(st)));
	else if (WEXITSTATUS(st) == REPLAY_UNREADABLE)
		printf("FAIL: %s: %s cannot be read\n", target, path);
	else
		printf("FAIL: %s: %s ended with status %d (a sanitizer's report is above)\n", target, path,
		       WEXITSTATUS(st));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	const char *target = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	DIR *d = opendir(argv[1]);
	if (!d) {
		printf("FAIL: %s: cannot open corpus %s\n", target, argv[1]);
		return 1;
	}
	struct dirent *e;
	int n = 0, bad = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", argv[1], e->d_name);
		n++;
		bad += !replay_one(target, path);
	}
	closedir(d);
	if (n == 0) {
		printf("FAIL: %s: corpus %s is empty\n", target, argv[1]);
		return 1;
	}
	if (bad)
		return 1;
	printf("PASS: %s: %d files of %s replayed, none crashed or tripped a sanitizer\n", target, n, argv[1]);
	return 0;
}
