/* The session layer: crafted samples fed through a session give the derive,
 * history, freeze and allocation-window figures; the schedule keeps its
 * deadlines; the picker's rows sort and select. No target is opened. */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collectors/dotnet/dotnet_runtime.h"
#include "collectors/hotspot/hotspot_runtime.h"
#include "base/clock.h"
#include "base/wait.h"
#include "session/job.h"

#include "tui/picker.h"
#include "session/session.h"
#include "tests/unit/check.h"

#define MS 1000000ull
#define S 1000000000ull

static struct gt_sample sample_at(uint64_t mono_ns, uint64_t alloc_total)
{
	struct gt_sample s;
	memset(&s, 0, sizeof(s));
	s.pid = 42;
	s.mono_ns = mono_ns;
	s.wall_ms = (int64_t)(mono_ns / MS) + 1700000000000ll;
	s.alloc_source = GT_ALLOC_SOURCE_ESTIMATE;
	gt_u64_set(&s.alloc_bytes_total, alloc_total);
	return s;
}

static void test_feed_derives_and_keeps_history(void)
{
	struct gt_session s;
	struct gt_error err = { 0 };
	struct gt_target_info info = { .pid = 42 };
	CHECK(gt_session_init(&s, &info, &err) == 0);
	CHECK(s.target == NULL);
	CHECK_U64(s.info.pid, 42);
	CHECK(!gt_session_shown(&s)->have_derived);

	struct gt_sample a = sample_at(1 * S, 1000), b = sample_at(3 * S, 1000 + 400 * MS);
	gt_session_feed(&s, &a);
	CHECK(gt_session_shown(&s)->have_derived);
	CHECK(!gt_session_shown(&s)->derived.alloc_rate_bps.valid);   /* one sample: no rate */
	gt_session_feed(&s, &b);
	CHECK_U64(s.samples, 2);
	CHECK_NEAR(gt_session_shown(&s)->derived.alloc_rate_bps.value, 200e6, 1e-3);
	CHECK_U64(s.live.history->count, 1);   /* one interval; the first sample starts it */
	CHECK_U64(s.prev.mono_ns, 3 * S);
	gt_session_close(&s);
}

static void test_freeze_keeps_the_picture(void)
{
	struct gt_session s;
	struct gt_error err = { 0 };
	CHECK(gt_session_init(&s, NULL, &err) == 0);
	struct gt_sample a = sample_at(1 * S, 0), b = sample_at(2 * S, 100), c = sample_at(3 * S, 1100);
	gt_session_feed(&s, &a);
	gt_session_feed(&s, &b);
	gt_session_toggle_freeze(&s);
	CHECK(s.frozen);
	gt_session_feed(&s, &c);   /* sampling goes on behind the frozen picture */
	CHECK_NEAR(gt_session_shown(&s)->derived.alloc_rate_bps.value, 100, 1e-9);
	CHECK_U64(gt_session_shown(&s)->history->count, 1);
	CHECK(gt_session_shown_wall_ms(&s) == b.wall_ms);
	CHECK_NEAR(s.live.derived.alloc_rate_bps.value, 1000, 1e-9);
	gt_session_toggle_freeze(&s);
	CHECK(!s.frozen);
	CHECK_NEAR(gt_session_shown(&s)->derived.alloc_rate_bps.value, 1000, 1e-9);
	CHECK_U64(gt_session_shown(&s)->history->count, 2);
	CHECK(gt_session_shown_wall_ms(&s) == 0);   /* live: now */
	gt_session_close(&s);
}

static void snapshot(struct gt_alloc_snapshot *sn, uint64_t mono_ns, uint64_t bytes, const char *msg)
{
	memset(sn, 0, sizeof(*sn));
	sn->mono_ns = mono_ns;
	sn->generation = 1;
	sn->state = GT_SAMPLER_RUNNING;
	snprintf(sn->message, sizeof(sn->message), "%s", msg);
	sn->samples = bytes / 100;
	sn->est_bytes = bytes;
	sn->by_type.n = 1;
	sn->by_type.complete = true;
	snprintf(sn->by_type.sites[0].name, sizeof(sn->by_type.sites[0].name), "byte[]");
	sn->by_type.sites[0].bytes = bytes;
	sn->by_type.sites[0].count = bytes / 100;
}

static void test_allocation_window(void)
{
	struct gt_session s;
	struct gt_error err = { 0 };
	static struct gt_alloc_snapshot x, y;   /* large: off the stack */
	CHECK(gt_session_init(&s, NULL, &err) == 0);
	snapshot(&x, 1 * S, 1000, "");
	gt_session_feed_allocators(&s, &x);   /* off: ignored */
	CHECK(!gt_session_allocators_on(&s));
	CHECK(!s.alloc_fresh);

	CHECK(gt_session_alloc_begin(&s, &err) == 0);
	CHECK(!gt_session_allocators_on(&s));   /* not before the target said yes */
	gt_session_alloc_end(&s, true);
	CHECK(gt_session_allocators_on(&s));
	CHECK(s.live.alloc->state == GT_SAMPLER_STARTING);
	gt_session_feed_allocators(&s, &x);
	snapshot(&y, 3 * S, 5000, "sampling every 512 KiB");
	gt_session_feed_allocators(&s, &y);
	CHECK(s.alloc_fresh);
	CHECK(s.live.alloc->valid);
	CHECK_NEAR(s.live.alloc->sampled_bps.value, 2000, 1e-9);
	CHECK_STR(s.live.alloc_message, "sampling every 512 KiB");
	gt_session_feed_allocators(&s, NULL);
	CHECK(!s.alloc_fresh);   /* batch mode prints no table without a new reading */

	gt_session_toggle_freeze(&s);
	CHECK(gt_session_shown(&s)->alloc != NULL && gt_session_shown(&s)->alloc != s.live.alloc);
	CHECK_STR(gt_session_shown(&s)->alloc_message, "sampling every 512 KiB");

	CHECK(gt_session_alloc_begin(&s, &err) == 0);
	gt_session_alloc_end(&s, false);   /* a failed enable leaves the session as it was */
	CHECK(s.alloc_window == NULL && s.alloc_pending == NULL);
	gt_session_close(&s);
}

static void test_schedule(void)
{
	struct gt_schedule sch;
	gt_schedule_start(&sch, 1 * S, 100 * MS, 10 * S);
	CHECK(gt_schedule_sample_due(&sch, 10 * S));
	gt_schedule_sampled(&sch, 100 * MS, 10 * S + 30 * MS);
	CHECK_U64(sch.next_sample, 11 * S);             /* no drift from the sample's 30 ms */
	CHECK_U64(gt_schedule_deadline(&sch), 10 * S + 100 * MS);
	CHECK(gt_schedule_poll_due(&sch, 10 * S + 100 * MS));
	gt_schedule_polled(&sch, 100 * MS, 10 * S + 100 * MS);
	CHECK_U64(sch.next_poll, 10 * S + 200 * MS);
	/* a poll that woke 3 ms late: the tick counts from now, so the next
	 * one is not early by those 3 ms */
	gt_schedule_polled(&sch, 100 * MS, 10 * S + 203 * MS);
	CHECK_U64(sch.next_poll, 10 * S + 303 * MS);
	/* the collector slowed its tick: the next one is a long tick away, past the sample */
	gt_schedule_polled(&sch, 2 * S, 10 * S + 200 * MS);
	CHECK_U64(gt_schedule_deadline(&sch), 11 * S);
	/* a sample brings the tick back in when it got faster again */
	gt_schedule_sampled(&sch, 100 * MS, 11 * S);
	CHECK_U64(sch.next_poll, 11 * S + 100 * MS);
	gt_schedule_set_interval(&sch, 5 * S, 11 * S + 500 * MS);
	CHECK_U64(sch.next_sample, 16 * S + 500 * MS);
	gt_schedule_sample_now(&sch, 12 * S);
	CHECK_U64(sch.next_sample, 12 * S);
	gt_schedule_stop(&sch);
	gt_schedule_sample_now(&sch, 13 * S);            /* stopped stays stopped */
	CHECK_U64(gt_schedule_deadline(&sch), GT_DEADLINE_NEVER);
	CHECK(!gt_schedule_poll_due(&sch, 20 * S));
}

static void test_session_without_target_never_waits(void)
{
	struct gt_session s;
	struct gt_error err = { 0 };
	CHECK(gt_session_init(&s, NULL, &err) == 0);
	gt_session_start(&s, 1 * S, 5 * S);
	CHECK(gt_session_wait_fd(&s) < 0);
	CHECK_U64(gt_session_poll_interval_ns(&s), 0);
	CHECK(gt_session_tick(&s, 5 * S, &err) == GT_SESSION_IDLE);   /* nothing to take: fed only */
	CHECK_U64(gt_session_deadline(&s), 6 * S);
	gt_session_close(&s);
}

static void test_picker_sort(void)
{
	struct gt_picker_slot s[4];
	memset(s, 0, sizeof(s));
	pid_t pids[4] = { 10, 20, 30, 40 };
	double rates[4] = { 5, 50, 0, 7 };
	for (int i = 0; i < 4; i++) {
		s[i].row.pid = pids[i];
		if (i != 2)
			gt_f64_set(&s[i].row.alloc_rate_bps, rates[i]);
		gt_u64_set(&s[i].row.rss, (uint64_t)(100 - i));
	}
	gt_picker_sort_rows(s, 4, GT_SORT_ALLOC);
	CHECK_U64(s[0].row.pid, 20);
	CHECK_U64(s[1].row.pid, 40);
	CHECK_U64(s[2].row.pid, 10);
	CHECK_U64(s[3].row.pid, 30);   /* unknown rate last, not as 0 */
	gt_picker_sort_rows(s, 4, GT_SORT_RSS);
	CHECK_U64(s[0].row.pid, 10);
	gt_picker_sort_rows(s, 4, GT_SORT_PID);
	CHECK_U64(s[3].row.pid, 40);

	struct gt_picker p;
	gt_picker_init(&p);
	p.slots = s;
	p.count = 4;
	gt_picker_move(&p, 10);
	CHECK_U64(p.selected, 3);
	gt_picker_move(&p, -10);
	CHECK_U64(p.selected, 0);
	CHECK_U64(gt_picker_selected_pid(&p), 10);

	/* rows without an open target need no tick and give nothing to wait on */
	struct gt_fleet_member m[2];
	memset(m, 0, sizeof(m));
	m[0].pid = 10;
	m[1].pid = 20;
	m[1].retry_ns = UINT64_MAX;    /* could not be read: not tried again ... */
	m[1].note = "unreadable";
	s[0].row.note = "unreadable";
	p.fleet.m = m;
	p.fleet.count = 2;
	int fds[4];
	CHECK_U64(gt_picker_poll_interval_ns(&p), 0);
	CHECK_U64(gt_picker_wait_fds(&p, fds, 4), 0);
	gt_picker_close_sessions(&p);
	CHECK_U64(m[1].retry_ns, 0);   /* ... until back from a dashboard: opened again, its rates anew */
	CHECK(m[1].note == NULL);
	CHECK(m[1].session == NULL);
	CHECK(s[0].row.note == NULL);
}

/* The filter keeps the rows holding its text in any column it names, in
 * any case; the selection stays on its process while it matches. */
static void test_picker_filter(void)
{
	struct gt_picker_row r = { .pid = 41234, .user = "svc", .program = "com.acme.OrderService",
				   .runtime = &gt_hotspot_runtime, .version = "17.0.13", .gc = "G1" };
	CHECK(gt_picker_row_matches(&r, ""));
	CHECK(gt_picker_row_matches(&r, "1234"));
	CHECK(gt_picker_row_matches(&r, "orderservice"));
	CHECK(gt_picker_row_matches(&r, "SVC"));
	CHECK(gt_picker_row_matches(&r, "jvm"));
	CHECK(gt_picker_row_matches(&r, "g1"));
	CHECK(!gt_picker_row_matches(&r, "dotnet"));
	CHECK(!gt_picker_row_matches(&r, "OrderServices"));
	/* the words users type for a runtime, and the release shown */
	CHECK(gt_picker_row_matches(&r, "java"));
	CHECK(gt_picker_row_matches(&r, "HotSpot"));
	CHECK(gt_picker_row_matches(&r, "17.0"));
	CHECK(!gt_picker_row_matches(&r, ".net"));
	CHECK(!gt_picker_row_matches(&r, "net"));
	/* the source --allocators takes by default, as SAMPLER shows it */
	snprintf(r.sampler, sizeof(r.sampler), "jfr");
	CHECK(gt_picker_row_matches(&r, "JFR"));
	struct gt_picker_row dn = { .pid = 77, .user = "web", .program = "Orders.Api", .runtime = &gt_dotnet_runtime,
				    .version = "10.0.0", .gc = "Workstation" };
	CHECK(gt_picker_row_matches(&dn, "dotnet"));
	CHECK(gt_picker_row_matches(&dn, ".NET"));
	CHECK(gt_picker_row_matches(&dn, "net"));
	CHECK(gt_picker_row_matches(&dn, "workstation"));
	CHECK(gt_picker_row_matches(&dn, "wkstn"));   /* the brief name a narrow picker shows */
	CHECK(!gt_picker_row_matches(&dn, "java"));
	CHECK(!gt_picker_row_matches(&dn, "jvm"));
	CHECK(!gt_picker_row_matches(&dn, "hotspot"));
	CHECK(!gt_picker_row_matches(&dn, "jfr"));
	/* a Tomcat is found by its name and by any word of its command line */
	struct gt_picker_row tc = { .pid = 9, .runtime = &gt_hotspot_runtime, .gc = "G1" };
	gt_picker_program(tc.program, sizeof(tc.program), "org.apache.catalina.startup.Bootstrap",
			  "/usr/bin/java -Dcatalina.base=/var/lib/tomcat10 -classpath /usr/share/tomcat10/bin/bootstrap.jar "
			  "org.apache.catalina.startup.Bootstrap start");
	snprintf(tc.command, sizeof(tc.command), "/usr/bin/java -Dcatalina.base=/var/lib/tomcat10 "
		 "org.apache.catalina.startup.Bootstrap start");
	CHECK(strcmp(tc.program, "Tomcat (org.apache.catalina.startup.Bootstrap)") == 0);
	CHECK(gt_picker_row_matches(&tc, "tomcat"));
	CHECK(gt_picker_row_matches(&tc, "/var/lib/tomcat10"));
	CHECK(gt_picker_row_matches(&tc, "catalina.base"));
	CHECK(!gt_picker_row_matches(&tc, "jetty"));
	/* the other servers' known names, from their main class or jar */
	CHECK(strcmp(gt_picker_server_name("org.eclipse.jetty.start.Main", ""), "Jetty") == 0);
	CHECK(strcmp(gt_picker_server_name("start.jar", "java -jar start.jar jetty.home=/opt/jetty"), "Jetty") == 0);
	CHECK(strcmp(gt_picker_server_name("/opt/wildfly/jboss-modules.jar", "java -Djboss.home.dir=/opt/wildfly -jar /opt/wildfly/jboss-modules.jar"), "WildFly") == 0);
	CHECK(strcmp(gt_picker_server_name("org.jboss.modules.Main", "java -Djboss.home.dir=/opt/eap"), "JBoss") == 0);
	CHECK(strcmp(gt_picker_server_name("org.springframework.boot.loader.launch.JarLauncher", ""), "Spring Boot") == 0);
	CHECK(gt_picker_server_name("com.acme.OrderService", "java com.acme.OrderService") == NULL);
	CHECK(gt_picker_server_name("start.jar", "java -jar start.jar") == NULL);
	/* ZGC as shown, Z as the collectors name it */
	struct gt_picker_row z = { .pid = 5, .program = "Main", .runtime = &gt_hotspot_runtime, .gc = "Z" };
	CHECK(gt_picker_row_matches(&z, "zgc"));
	CHECK(gt_picker_row_matches(&z, "jvm"));
	CHECK(!gt_picker_row_matches(&z, "g1"));

	struct gt_fleet_member m[3];
	memset(m, 0, sizeof(m));
	const char *mains[3] = { "OrderService", "Billing", "orders.Worker" };
	for (int i = 0; i < 3; i++) {
		m[i].pid = 100 + i;
		snprintf(m[i].listed.main_class, sizeof(m[i].listed.main_class), "%s", mains[i]);
	}
	struct gt_picker p;
	gt_picker_init(&p);
	p.sort = GT_SORT_PID;
	p.fleet.m = m;
	p.fleet.count = 3;
	gt_picker_set_filter(&p, "");
	CHECK_U64(p.count, 3);
	gt_picker_move(&p, 2);
	CHECK_U64(gt_picker_selected_pid(&p), 102);
	gt_picker_set_filter(&p, "ORDER");
	CHECK_U64(p.count, 2);
	CHECK_U64(p.found, 3);
	CHECK_U64(gt_picker_selected_pid(&p), 102);
	gt_picker_set_filter(&p, "bill");
	CHECK_U64(p.count, 1);
	CHECK_U64(gt_picker_selected_pid(&p), 101);
	gt_picker_set_filter(&p, "nothing");
	CHECK_U64(p.count, 0);
	CHECK_U64(gt_picker_selected_pid(&p), 0);
	free(p.slots);
}

/* Waits (bounded) for the job's descriptor, then collects it. */
static enum gt_job_result finish_within(struct gt_session *s, unsigned ms, struct gt_error *err)
{
	gt_wait_fd(gt_session_job_fd(s), POLLIN, gt_wait_deadline_in_ms(ms));
	return gt_session_job_finish(s, err);
}

static void test_open_job_reports_failure(void)
{
	struct gt_session s;
	struct gt_error err = { 0 };
	/* No process has PID 0x7ffffff0 (above pid_max). */
	CHECK(gt_session_open_async(&s, 0x7ffffff0, &err) == 0);
	CHECK(gt_session_busy(&s));
	CHECK_U64(s.info.pid, 0x7ffffff0);
	CHECK(gt_session_wait_fd(&s) == gt_session_job_fd(&s));   /* the loop wakes on the job's end */
	CHECK_U64(gt_session_deadline(&s), GT_DEADLINE_NEVER);
	CHECK(finish_within(&s, 5000, &err) == GT_JOB_FAILED);
	CHECK(err.code == GT_EXIT_NO_PROCESS);
	CHECK(!gt_session_busy(&s));
	CHECK(s.target == NULL);
	gt_session_close(&s);
}

static void test_open_job_cancels_at_once(void)
{
	/* A process a moment old that is no runtime: the open probes it again
	 * for 2 s in case it is about to exec one; a cancel ends that wait. */
	pid_t child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	CHECK(child > 0);
	struct gt_session s;
	struct gt_error err = { 0 };
	CHECK(gt_session_open_async(&s, child, &err) == 0);
	CHECK(finish_within(&s, 200, &err) == GT_JOB_RUNNING);   /* still probing */
	uint64_t t0 = gt_mono_ns();
	gt_session_job_cancel(&s);
	CHECK(finish_within(&s, 1000, &err) == GT_JOB_CANCELLED);
	CHECK((gt_mono_ns() - t0) / 1000000u < 500);
	CHECK(s.target == NULL);
	gt_session_close(&s);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

int main(void)
{
	RUN_TEST(test_feed_derives_and_keeps_history);
	RUN_TEST(test_freeze_keeps_the_picture);
	RUN_TEST(test_allocation_window);
	RUN_TEST(test_schedule);
	RUN_TEST(test_session_without_target_never_waits);
	RUN_TEST(test_picker_sort);
	RUN_TEST(test_picker_filter);
	RUN_TEST(test_open_job_reports_failure);
	RUN_TEST(test_open_job_cancels_at_once);
	return check_summary();
}
