/* Heap-dump collections told apart from GC.Collect by the thread that
 * asked (collectors/dotnet/dotnet_inspection.h), on this process's own
 * threads: one named as the runtime names its diagnostics server, the
 * main thread as a program's. */
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "collectors/dotnet/dotnet_inspection.h"
#include "tests/unit/check.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static uint64_t server_tid;
static int done;

static void *server(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), ".NET EventPipe");
	pthread_mutex_lock(&lock);
	server_tid = (uint64_t)syscall(SYS_gettid);
	pthread_cond_broadcast(&cond);
	while (!done)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

static struct gt_nettrace_meta meta;

/* GCTriggered with reason, written on thread tid */
static void triggered(struct gt_dn_inspection *s, uint64_t tid, uint32_t reason)
{
	uint8_t p[6] = { (uint8_t)reason, 0, 0, 0, 7, 0 };
	memset(&meta, 0, sizeof(meta));
	strcpy(meta.provider, "Microsoft-Windows-DotNETRuntime");
	meta.event_id = 35;
	struct gt_nettrace_event e = { .meta = &meta, .thread_id = tid, .payload = p, .payload_len = sizeof(p) };
	gt_dn_inspection_event(s, getpid(), &e);
}

static void test_diagnostics_thread_is_an_inspection(void)
{
	pthread_t t;
	CHECK(pthread_create(&t, NULL, server, NULL) == 0);
	pthread_mutex_lock(&lock);
	while (server_tid == 0)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	struct gt_dn_inspection s = { 0 };
	uint64_t main_tid = (uint64_t)syscall(SYS_gettid);
	triggered(&s, main_tid, 1);        /* the program's GC.Collect */
	CHECK_U64(s.count, 0);
	triggered(&s, server_tid, 1);      /* a session's GCHeapCollect */
	CHECK_U64(s.count, 1);
	triggered(&s, server_tid, 0);      /* not induced (AllocSmall) */
	CHECK_U64(s.count, 1);
	triggered(&s, main_tid, 1);
	triggered(&s, server_tid, 1);
	CHECK_U64(s.count, 2);
	triggered(&s, 1u << 30, 1);        /* no such thread */
	CHECK_U64(s.count, 2);
	pthread_mutex_lock(&lock);
	done = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	pthread_join(t, NULL);
}

int main(void)
{
	RUN_TEST(test_diagnostics_thread_is_an_inspection);
	return check_summary();
}
