/* The one SIGBUS handler (base/fault.h): a guarded read of a page its file
 * lost comes back with -1, on each thread at once; a SIGBUS outside any
 * guard still kills the process, after the registered crash function. */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fault.h"
#include "tests/unit/check.h"

#define PAGE 4096
#define ROUNDS 2000

/* A mapping of two pages over a file of one: its second page faults. */
static volatile uint8_t *short_mapping(void)
{
	char path[] = "/tmp/gctop-fault-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	unlink(path);
	void *m = ftruncate(fd, PAGE) == 0 ? mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
	close(fd);
	return m == MAP_FAILED ? NULL : m;
}

static void touch_second_page(void *arg)
{
	volatile uint8_t *m = arg;
	(void)m[PAGE];
}

static void touch_first_page(void *arg)
{
	volatile uint8_t *m = arg;
	(void)m[0];
}

static void test_guarded_fault(void)
{
	volatile uint8_t *m = short_mapping();
	CHECK(m != NULL);
	if (!m)
		return;
	CHECK(gt_fault_guarded(touch_second_page, (void *)m) == -1);
	CHECK(gt_fault_guarded(touch_first_page, (void *)m) == 0);
	CHECK(gt_fault_guarded(touch_second_page, (void *)m) == -1);
	munmap((void *)m, 2 * PAGE);
}

static void *fault_rounds(void *arg)
{
	uintptr_t misses = 0;
	for (int i = 0; i < ROUNDS; i++)
		misses += gt_fault_guarded(touch_second_page, arg) != -1;
	return (void *)misses;
}

/* Two threads faulting at once: each comes back on its own way out. With
 * a handler installed and restored around each read, one thread could
 * restore the other's old handler and a read would go unguarded. */
static void test_two_threads(void)
{
	volatile uint8_t *m = short_mapping();
	CHECK(m != NULL);
	if (!m)
		return;
	pthread_t t;
	CHECK(pthread_create(&t, NULL, fault_rounds, (void *)m) == 0);
	void *mine = fault_rounds((void *)m);
	void *theirs = NULL;
	pthread_join(t, &theirs);
	CHECK((uintptr_t)mine == 0 && (uintptr_t)theirs == 0);
	munmap((void *)m, 2 * PAGE);
}

static int crash_pipe = -1;

static void on_crash(int sig)
{
	char c = (char)sig;
	if (write(crash_pipe, &c, 1) != 1)
		_exit(3);
}

/* Outside a guard, a SIGBUS calls the crash function, then kills. */
static void test_unguarded_fault_kills(void)
{
	int fds[2];
	CHECK(pipe(fds) == 0);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		crash_pipe = fds[1];
		volatile uint8_t *m = short_mapping();
		gt_fault_on_crash(on_crash);
		CHECK(gt_fault_guarded(touch_second_page, (void *)m) == -1);
		touch_second_page((void *)m);
		_exit(0);
	}
	close(fds[1]);
	int status = 0;
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS);
	char c = 0;
	CHECK(read(fds[0], &c, 1) == 1 && c == SIGBUS);
	close(fds[0]);
}

int main(void)
{
	RUN_TEST(test_guarded_fault);
	RUN_TEST(test_two_threads);
	RUN_TEST(test_unguarded_fault_kills);
	return check_summary();
}
