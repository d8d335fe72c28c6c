/* A fake JVM for the fleet-scale bench (bench/fleet_scale.py): a thousand
 * of these must cost the machine next to nothing, so each is a sleeping
 * process, built as build/bench/fakejvm/java, that maps a file named
 * libjvm.so (what makes a process a JVM to gctop) and publishes a copy of a
 * real perf-data file as /tmp/hsperfdata_USER/PID, with
 * sun.rt.createVmBeginTime set to its own start (so the file is taken as
 * this process's) and one counter (sun.os.hrt.ticks) advanced every second,
 * so the JVM is live. It removes its file when it ends: on SIGTERM or SIGINT,
 * after LIFETIME_MS, or when the bench that started it dies.
 * usage: java TEMPLATE LIBJVM BEGIN_OFFSET TICK_OFFSET TICK_STEP [LIFETIME_MS]
 * (the offsets are the entries' data in TEMPLATE, which the bench finds). */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FAKEJVM_MAX_FILE (1024 * 1024)
#define FAKEJVM_TICK_MS 1000

static volatile sig_atomic_t fakejvm_stop;

static void fakejvm_on_signal(int sig)
{
	(void)sig;
	fakejvm_stop = 1;
}

/* This process's start, in ms since the epoch, as gctop computes it (boot
 * time plus the start time in clock ticks). */
static int64_t fakejvm_start_ms(void)
{
	char buf[1024];
	long long btime = 0, ticks = 0;
	FILE *f = fopen("/proc/stat", "r");
	while (f && fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "btime %lld", &btime) == 1)
			break;
	if (f)
		fclose(f);
	f = fopen("/proc/self/stat", "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	/* starttime is field 22; after ")" come fields 3.. */
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		ticks = atoll(p + 1);
	return (int64_t)btime * 1000 + (int64_t)ticks * 1000 / sysconf(_SC_CLK_TCK);
}

static uint8_t *fakejvm_read(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0 || st.st_size > FAKEJVM_MAX_FILE)
		return NULL;
	uint8_t *buf = malloc((size_t)st.st_size);
	if (buf && read(fd, buf, (size_t)st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

int main(int argc, char **argv)
{
	if (argc < 6) {
		fprintf(stderr, "usage: %s TEMPLATE LIBJVM BEGIN_OFFSET TICK_OFFSET TICK_STEP [LIFETIME_MS]\n", argv[0]);
		return 2;
	}
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	int lib = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (lib < 0 || mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, lib, 0) == MAP_FAILED) {
		perror(argv[2]);
		return 1;
	}
	close(lib);
	size_t len = 0, begin_off = strtoul(argv[3], NULL, 10), tick_off = strtoul(argv[4], NULL, 10);
	int64_t step = atoll(argv[5]);
	long lifetime_ms = argc > 6 ? atol(argv[6]) : 0;
	uint8_t *tpl = fakejvm_read(argv[1], &len);
	if (!tpl || begin_off + 8 > len || tick_off + 8 > len) {
		fprintf(stderr, "%s: bad template or offsets\n", argv[1]);
		return 1;
	}
	int64_t begin = fakejvm_start_ms();
	memcpy(tpl + begin_off, &begin, sizeof(begin));

	struct sigaction sa = { .sa_handler = fakejvm_on_signal };
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	struct passwd *pw = getpwuid(geteuid());
	char dir[256], path[320];
	snprintf(dir, sizeof(dir), "/tmp/hsperfdata_%s", pw ? pw->pw_name : "root");
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		perror(dir);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/%d", dir, (int)getpid());
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)len) != 0) {
		perror(path);
		return 1;
	}
	uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		perror(path);
		unlink(path);
		return 1;
	}
	memcpy(m, tpl, len);
	free(tpl);

	struct timespec now, end;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += lifetime_ms / 1000;
	end.tv_nsec += (lifetime_ms % 1000) * 1000000L;
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	while (!fakejvm_stop) {
		struct timespec tick = { FAKEJVM_TICK_MS / 1000, (FAKEJVM_TICK_MS % 1000) * 1000000L };
		if (lifetime_ms > 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			int64_t left = (int64_t)(end.tv_sec - now.tv_sec) * 1000000000LL + (end.tv_nsec - now.tv_nsec);
			if (left <= 0)
				break;
			if (left < (int64_t)FAKEJVM_TICK_MS * 1000000LL)
				tick = (struct timespec){ left / 1000000000LL, left % 1000000000LL };
		}
		nanosleep(&tick, NULL);
		int64_t t;
		memcpy(&t, m + tick_off, sizeof(t));
		t += step;
		memcpy(m + tick_off, &t, sizeof(t));
	}
	unlink(path);
	return 0;
}
