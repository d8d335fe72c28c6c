/* The answers of JDK 17 and 25 to gctop's JFR.* commands, as the attach
 * listener returns them (status line, then the command's output), parsed
 * by collectors/hotspot/jfr/jfr_reply.c; and the JFR.start line gctop
 * sends (jfr_recording.c) within the attach protocol's argument limit. */
#include <stdio.h>
#include <string.h>

#include "collectors/hotspot/jfr/jfr_recording.h"
#include "collectors/hotspot/jfr/jfr_reply.h"
#include "tests/unit/check.h"

#define VERDICT(text, expect, why) jfr_reply_verdict(text, strlen(text), expect, why, sizeof(why))

static void started_on_17_and_25(void)
{
	char why[JFR_REPLY_WHY_LEN];
	CHECK(VERDICT("0\nStarted recording 1.\n\nUse jcmd 20837 JFR.stop name=gctop-1-1 filename=FILEPATH to copy "
		      "recording data to file.\n", "Started recording", why) == JFR_REPLY_OK);
	CHECK(VERDICT("0\nStarted recording 2. The result will be written to:\n\n/dev/null\n", "Started recording",
		      why) == JFR_REPLY_OK);
	CHECK(VERDICT("0\nStopped recording \"gctop-1-1\".\n", "Stopped recording", why) == JFR_REPLY_OK);
	CHECK(VERDICT("0\nStopped recording \"gctop-1-1\", 121.7 kB written to:\n\n/dev/null\n", "Stopped recording",
		      why) == JFR_REPLY_OK);
}

static void refusals_say_why(void)
{
	char why[JFR_REPLY_WHY_LEN];
	CHECK(VERDICT("0\nFlight Recorder is disabled.\n", "Started recording", why) == JFR_REPLY_DISABLED);
	CHECK_STR(why, "Flight Recorder is disabled.");
	CHECK(VERDICT("1\njava.lang.IllegalArgumentException: Unknown diagnostic command\n", "Started recording", why) ==
	      JFR_REPLY_NO_JFR);
	CHECK(VERDICT("0\nCould not stop recording \"nope\".\n", "Stopped recording", why) == JFR_REPLY_REFUSED);
	CHECK_STR(why, "Could not stop recording \"nope\".");
	/* a listener's refusal: a status other than 0, whatever follows */
	CHECK(VERDICT("1\nStarted recording 1.\n", "Started recording", why) == JFR_REPLY_REFUSED);
	CHECK(VERDICT("0\n", "Started recording", why) == JFR_REPLY_REFUSED);
	CHECK_STR(why, "an empty answer");
	CHECK(VERDICT("", "Started recording", why) == JFR_REPLY_REFUSED);
	CHECK(jfr_reply_verdict(NULL, 0, "x", why, sizeof(why)) == JFR_REPLY_REFUSED);
	/* control bytes from the target never reach the sentence */
	CHECK(VERDICT("0\nno\x1b[2Jroom\x07\n", "Started recording", why) == JFR_REPLY_REFUSED);
	CHECK_STR(why, "no[2Jroom");
}

static void repository_from_configure(void)
{
	char path[256];
	const char r17[] = "0\nCurrent configuration:\n\nRepository path: /tmp/2026_12_07_00_51_39_20837\n\nStack depth: 64\n";
	CHECK(jfr_reply_repository(r17, strlen(r17), path, sizeof(path)) == 0);
	CHECK_STR(path, "/tmp/2026_12_07_00_51_39_20837");
	const char r25[] = "0\nCurrent configuration:\n\nPreserve repository: false\nRepository path: "
			   "/tmp/2026_12_07_00_51_49_20838\n\nDump path: /tmp/jfrx\n";
	CHECK(jfr_reply_repository(r25, strlen(r25), path, sizeof(path)) == 0);
	CHECK_STR(path, "/tmp/2026_12_07_00_51_49_20838");
	static const char *const bad[] = {
		"0\nRepository path: relative/dir\n",
		"0\nRepository path: /tmp/../etc\n",
		"0\nRepository path: /tmp/./x\n",
		"0\nRepository path: \n",
		"0\nRepository path: /tmp/a\x01" "b\n",
		"0\nFlight Recorder is disabled.\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(jfr_reply_repository(bad[i], strlen(bad[i]), path, sizeof(path)) == -1);
	char small[8];
	CHECK(jfr_reply_repository(r17, strlen(r17), small, sizeof(small)) == -1);
	/* held to the length given, not to a NUL */
	CHECK(jfr_reply_repository(r17, 30, path, sizeof(path)) == -1);
}

static void gctop_recordings_in_check(void)
{
	const char r[] = "0\nRecording 1: name=gctop-4242-1 duration=2m maxsize=16.0MB maxage=1m (running)\n\n"
			 "Recording 2: name=My Recording duration=1m (running)\n"
			 "Recording 3: name=gctop-17-3 duration=2m (stopped)\n"
			 "Recording 4: name=gctop-x-1 (running)\n"
			 "Recording 5: name=gctop-99-2 (delayed)\n";
	struct jfr_listed l[8];
	size_t n = jfr_reply_recordings(r, strlen(r), l, 8);
	CHECK_U64(n, 3);
	CHECK_STR(l[0].name, "gctop-4242-1");
	CHECK(l[0].running);
	CHECK_STR(l[1].name, "gctop-17-3");
	CHECK(!l[1].running);
	CHECK_STR(l[2].name, "gctop-99-2");
	CHECK(l[2].running);
	CHECK_U64(jfr_reply_recordings(r, strlen(r), l, 1), 1);
	const char none[] = "0\nNo available recordings.\n\nUse jcmd 1 JFR.start to start a recording.\n";
	CHECK_U64(jfr_reply_recordings(none, strlen(none), l, 8), 0);
}

static void names_say_whose(void)
{
	pid_t pid = 0;
	CHECK(jfr_name_parse("gctop-4242-1", &pid));
	CHECK_U64(pid, 4242);
	CHECK(!jfr_name_parse("gctop-4242", &pid));
	CHECK(!jfr_name_parse("gctop-4242-", &pid));
	CHECK(!jfr_name_parse("gctop--1", &pid));
	CHECK(!jfr_name_parse("gctop-0-1", &pid));
	CHECK(!jfr_name_parse("gctop-99999999999-1", &pid));
	CHECK(!jfr_name_parse("gctop-12-1x", &pid));
	CHECK(!jfr_name_parse("other-12-1", &pid));
}

static void start_line_fits_the_attach_protocol(void)
{
	char line[1024];
	CHECK(jfr_recording_command("gctop-4194304-4294967295", line, sizeof(line)) == 0);
	CHECK(strlen(line) < 1024);
	CHECK(strstr(line, "settings=none") != NULL);
	CHECK(strstr(line, "filename=/dev/null") != NULL);
	CHECK(strstr(line, "+jdk.ObjectAllocationSample#enabled=true") != NULL);
	CHECK(strstr(line, "duration=120s") != NULL);
	char tiny[64];
	CHECK(jfr_recording_command("gctop-1-1", tiny, sizeof(tiny)) == -1);
}

int main(void)
{
	RUN_TEST(started_on_17_and_25);
	RUN_TEST(refusals_say_why);
	RUN_TEST(repository_from_configure);
	RUN_TEST(gctop_recordings_in_check);
	RUN_TEST(names_say_whose);
	RUN_TEST(start_line_fits_the_attach_protocol);
	return check_summary();
}
