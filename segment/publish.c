#include "segment/publish.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Bounds the work one sample may do when its table is crowded. */
#define PUB_MAX_PROBES 64
#define PUB_BUSY_SPINS 4096

uint64_t gctop_pub_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int gctop_pub_path(char *buf, size_t len, const char *dir, pid_t pid)
{
	int n = snprintf(buf, len, "%s/" GCTOP_SEG_FILE_PREFIX "%d", dir, (int)pid);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

static bool pub_power_of_two(uint32_t v)
{
	return v && v <= GCTOP_SEG_MAX_SLOTS && (v & (v - 1)) == 0;
}

/* A generation nobody else will pick: time, pid and an address mixed. */
static uint64_t pub_generation(void)
{
	uint64_t x = gctop_pub_now_ns() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)&x;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x ? x : 1;
}

static void pub_init_header(struct gctop_seg_header *h, size_t size, const struct gctop_pub_config *cfg)
{
	memcpy(h->magic, GCTOP_SEG_MAGIC, 8);
	h->version = GCTOP_SEG_VERSION;
	h->header_size = sizeof(*h);
	h->file_size = size;
	h->generation = pub_generation();
	h->writer_pid = (int32_t)getpid();
	h->slot_size = sizeof(struct gctop_seg_site);
	h->frame_offset = sizeof(*h);
	h->frame_slots = cfg->frame_slots;
	h->type_offset = (uint32_t)(sizeof(*h) + (size_t)cfg->frame_slots * sizeof(struct gctop_seg_site));
	h->type_slots = cfg->type_slots;
	h->flags = cfg->flags;
	h->layout_minor = GCTOP_SEG_LAYOUT_MINOR;
	if (cfg->stack_slots) {
		h->stack_offset = (uint32_t)(h->type_offset + (size_t)cfg->type_slots * sizeof(struct gctop_seg_site));
		h->stack_slots = cfg->stack_slots;
		h->method_offset = (uint32_t)(h->stack_offset + (size_t)cfg->stack_slots * sizeof(struct gctop_seg_stack));
		h->method_slots = cfg->method_slots;
	}
	if (cfg->ops) {
		h->ops_offset = (uint32_t)(size - sizeof(struct gctop_seg_ops));
		h->ops_size = sizeof(struct gctop_seg_ops);
	}
	snprintf(h->source, sizeof(h->source), "%s", cfg->source ? cfg->source : "");
	h->state = GCTOP_SEG_STARTING;
	h->writer_heartbeat_ns = gctop_pub_now_ns();
}

int gctop_pub_create(struct gctop_pub *p, const char *path, const struct gctop_pub_config *cfg,
		     char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	if (!pub_power_of_two(cfg->frame_slots) || !pub_power_of_two(cfg->type_slots) ||
	    (cfg->stack_slots && (!pub_power_of_two(cfg->stack_slots) || !pub_power_of_two(cfg->method_slots)))) {
		snprintf(err, errlen, "segment table sizes must be powers of two up to %u", GCTOP_SEG_MAX_SLOTS);
		return -EINVAL;
	}
	size_t size = sizeof(struct gctop_seg_header) +
		((size_t)cfg->frame_slots + cfg->type_slots) * sizeof(struct gctop_seg_site);
	if (cfg->stack_slots)
		size += (size_t)cfg->stack_slots * sizeof(struct gctop_seg_stack) +
			(size_t)cfg->method_slots * sizeof(struct gctop_seg_method);
	if (cfg->ops)
		size += sizeof(struct gctop_seg_ops); /* last: pub_init_header finds it there */
	if (size > GCTOP_SEG_MAX_FILE_SIZE) {
		snprintf(err, errlen, "segment of %zu bytes is larger than %u", size, GCTOP_SEG_MAX_FILE_SIZE);
		return -EINVAL;
	}
	char tmp[sizeof(p->path) + 32];
	if (snprintf(p->path, sizeof(p->path), "%s", path) >= (int)sizeof(p->path) ||
	    snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid()) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "segment path too long: %s", path);
		return -ENAMETOOLONG;
	}
	/* A leftover temporary of ours (same pid, crashed before rename) is ours
	 * to remove; O_EXCL below refuses anything planted in its place since. */
	unlink(tmp);
	int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(e));
		return -e;
	}
	int rc = 0;
	void *m = MAP_FAILED;
	/* The umask may have removed bits but never adds any; fchmod makes the
	 * mode exactly 0600 whatever the umask. */
	if (fchmod(fd, 0600) != 0 || ftruncate(fd, (off_t)size) != 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot size %s: %s", tmp, strerror(errno));
		goto out;
	}
	m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		rc = -errno;
		snprintf(err, errlen, "cannot map %s: %s", tmp, strerror(errno));
		goto out;
	}
	pub_init_header(m, size, cfg);
	/* rename() replaces whatever has the final name without following it; in
	 * a sticky /tmp it fails on another user's file, which is what we want. */
	if (rename(tmp, path) != 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot publish %s: %s", path, strerror(errno));
		goto out;
	}
	p->hdr = m;
	p->size = size;
	p->linked = true;
out:
	close(fd);
	if (rc != 0) {
		if (m != MAP_FAILED)
			munmap(m, size);
		unlink(tmp);
	}
	return rc;
}

static void pub_seq_begin(uint64_t *seq)
{
	uint64_t s = __atomic_load_n(seq, __ATOMIC_RELAXED);
	__atomic_store_n(seq, s + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void pub_seq_end(uint64_t *seq)
{
	uint64_t s = __atomic_load_n(seq, __ATOMIC_RELAXED);
	__atomic_store_n(seq, s + 1, __ATOMIC_RELEASE);
}

void gctop_pub_set_state(struct gctop_pub *p, enum gctop_seg_state state, const char *message)
{
	struct gctop_seg_header *h = p->hdr;
	pub_seq_begin(&h->seq);
	__atomic_store_n(&h->state, (uint32_t)state, __ATOMIC_RELAXED);
	size_t n = message ? strnlen(message, GCTOP_SEG_MESSAGE_LEN - 1) : 0;
	for (size_t i = 0; i < GCTOP_SEG_MESSAGE_LEN; i++)
		__atomic_store_n(&h->message[i], i < n ? message[i] : '\0', __ATOMIC_RELAXED);
	pub_seq_end(&h->seq);
}

void gctop_pub_set_alloc_total(struct gctop_pub *p, uint64_t bytes, uint64_t mono_ns)
{
	struct gctop_seg_header *h = p->hdr;
	pub_seq_begin(&h->seq);
	__atomic_store_n(&h->alloc_total_bytes, bytes, __ATOMIC_RELAXED);
	__atomic_store_n(&h->alloc_total_ns, mono_ns, __ATOMIC_RELAXED);
	pub_seq_end(&h->seq);
}

void gctop_pub_set_interval(struct gctop_pub *p, uint64_t bytes)
{
	__atomic_store_n(&p->hdr->interval, bytes, __ATOMIC_RELAXED);
}

void gctop_pub_heartbeat(struct gctop_pub *p, uint64_t mono_ns)
{
	__atomic_store_n(&p->hdr->writer_heartbeat_ns, mono_ns, __ATOMIC_RELAXED);
}

uint64_t gctop_pub_reader_heartbeat(const struct gctop_pub *p)
{
	return __atomic_load_n(&p->hdr->reader_heartbeat, __ATOMIC_RELAXED);
}

uint64_t gctop_pub_requested_interval(const struct gctop_pub *p)
{
	return __atomic_load_n(&p->hdr->requested_interval, __ATOMIC_RELAXED);
}

uint64_t gctop_pub_samples(const struct gctop_pub *p)
{
	return __atomic_load_n(&p->hdr->samples, __ATOMIC_RELAXED);
}

uint64_t gctop_pub_est_bytes(const struct gctop_pub *p)
{
	return __atomic_load_n(&p->hdr->est_bytes, __ATOMIC_RELAXED);
}

void gctop_pub_set_region(struct gctop_pub *p, uint64_t bytes)
{
	__atomic_store_n(&p->hdr->region_bytes, bytes, __ATOMIC_RELEASE);
}

void gctop_pub_region_object(struct gctop_pub *p, uint64_t size, uint64_t weight)
{
	struct gctop_seg_header *h = p->hdr;
	uint64_t region = __atomic_load_n(&h->region_bytes, __ATOMIC_ACQUIRE);
	/* G1's rule: humongous when larger than half a region */
	if (!region || size <= region / 2)
		return;
	uint64_t regions = size / region + (size % region != 0);
	/* in double: the tail (under a region) times a weight can pass 2^64 */
	double tail = (double)(regions * region - size) * ((double)weight / (double)size);
	if (!(tail < 0x1p63))   /* no real weight comes near; a counter must not wrap */
		return;
	__atomic_fetch_add(&h->humongous_bytes, weight, __ATOMIC_RELAXED);
	__atomic_fetch_add(&h->humongous_tail_bytes, (uint64_t)tail, __ATOMIC_RELAXED);
}

static struct gctop_seg_site *pub_table(struct gctop_pub *p, bool types, uint32_t *slots)
{
	struct gctop_seg_header *h = p->hdr;
	*slots = types ? h->type_slots : h->frame_slots;
	return (struct gctop_seg_site *)((char *)h + (types ? h->type_offset : h->frame_offset));
}

/* Waits out a claimer that is writing a slot's name; gives up rather than
 * block an allocating thread for long. */
static inline void pub_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static uint64_t pub_wait_claimed(uint64_t *keyp)
{
	uint64_t k = __atomic_load_n(keyp, __ATOMIC_ACQUIRE);
	for (int i = 0; k == GCTOP_SEG_KEY_BUSY && i < PUB_BUSY_SPINS; i++) {
		pub_cpu_relax();
		k = __atomic_load_n(keyp, __ATOMIC_ACQUIRE);
	}
	return k;
}

/* The key of a slot, claimed for the caller when empty (*claimed: the
 * caller fills the slot, then stores its key with release); waits out
 * another claimer. GCTOP_SEG_KEY_BUSY when that one never finished. */
static uint64_t pub_claim(uint64_t *keyp, bool *claimed)
{
	*claimed = false;
	uint64_t k = __atomic_load_n(keyp, __ATOMIC_ACQUIRE);
	if (k == GCTOP_SEG_KEY_EMPTY) {
		uint64_t expect = GCTOP_SEG_KEY_EMPTY;
		if (__atomic_compare_exchange_n(keyp, &expect, GCTOP_SEG_KEY_BUSY, false, __ATOMIC_ACQUIRE,
						__ATOMIC_ACQUIRE)) {
			*claimed = true;
			return GCTOP_SEG_KEY_BUSY;
		}
		k = expect;
	}
	return k == GCTOP_SEG_KEY_BUSY ? pub_wait_claimed(keyp) : k;
}

static bool pub_add_site(struct gctop_pub *p, bool types, const char *name, enum gctop_seg_heap heap, uint64_t weight)
{
	uint32_t slots;
	struct gctop_seg_site *t = pub_table(p, types, &slots);
	uint64_t key = gctop_seg_key(name);

	for (uint32_t i = 0; i < slots && i < PUB_MAX_PROBES; i++) {
		struct gctop_seg_site *s = &t[(key + i) & (slots - 1)];
		bool claimed;
		uint64_t k = pub_claim(&s->key, &claimed);
		if (claimed) {
			snprintf(s->name, sizeof(s->name), "%s", name);
			s->heap = (uint32_t)heap;
			__atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
			k = key;
		}
		if (k == GCTOP_SEG_KEY_BUSY)
			return false;
		/* Equal keys are not proof: two names may hash alike. The stored
		 * name may be a truncation of a longer one, so compare it that way. */
		if (k == key && strncmp(s->name, name, sizeof(s->name) - 1) == 0) {
			__atomic_fetch_add(&s->count, 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&s->bytes, weight, __ATOMIC_RELAXED);
			return true;
		}
	}
	return false;
}

void gctop_pub_sample(struct gctop_pub *p, const char *frame, const char *type,
		      enum gctop_seg_heap heap, uint64_t weight)
{
	struct gctop_seg_header *h = p->hdr;
	__atomic_fetch_add(&h->samples, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&h->est_bytes, weight, __ATOMIC_RELAXED);
	bool ok = true;
	if (frame && !pub_add_site(p, false, frame, GCTOP_SEG_HEAP_UNKNOWN, weight))
		ok = false;
	if (type && !pub_add_site(p, true, type, heap, weight))
		ok = false;
	if (!ok)
		__atomic_fetch_add(&h->dropped, 1, __ATOMIC_RELAXED);
}

bool gctop_pub_method(struct gctop_pub *p, uint64_t id, const char *name)
{
	struct gctop_seg_header *h = p->hdr;
	if (!h->stack_slots)
		return false;
	struct gctop_seg_method *t = (struct gctop_seg_method *)((char *)h + h->method_offset);
	uint64_t key = gctop_seg_method_key(id);
	for (uint32_t i = 0; i < h->method_slots && i < PUB_MAX_PROBES; i++) {
		struct gctop_seg_method *m = &t[(key + i) & (h->method_slots - 1)];
		bool claimed;
		uint64_t k = pub_claim(&m->key, &claimed);
		if (claimed) {
			m->id = id;
			snprintf(m->name, sizeof(m->name), "%s", name);
			__atomic_store_n(&m->key, key, __ATOMIC_RELEASE);
			return true;
		}
		if (k == GCTOP_SEG_KEY_BUSY)
			return false;
		if (k == key && m->id == id)
			return true;
	}
	return false;
}

/* Counts a stack dropped on its site's frame slot (when the site has one). */
static void pub_site_stack_dropped(struct gctop_pub *p, const char *site, uint64_t key)
{
	uint32_t slots;
	struct gctop_seg_site *t = pub_table(p, false, &slots);
	for (uint32_t i = 0; i < slots && i < PUB_MAX_PROBES; i++) {
		struct gctop_seg_site *s = &t[(key + i) & (slots - 1)];
		uint64_t k = __atomic_load_n(&s->key, __ATOMIC_ACQUIRE);
		if (k == GCTOP_SEG_KEY_EMPTY)
			return;
		if (k == key && strncmp(s->name, site, sizeof(s->name) - 1) == 0) {
			__atomic_fetch_add(&s->stacks_dropped, 1, __ATOMIC_RELAXED);
			return;
		}
	}
}

static bool pub_same_stack(const struct gctop_seg_stack *s, uint64_t site_key, const uint64_t *frames, uint32_t n)
{
	return s->site_key == site_key && s->n_frames == n && memcmp(s->frames, frames, n * sizeof(frames[0])) == 0;
}

void gctop_pub_stack(struct gctop_pub *p, const char *site, const uint64_t *frames, uint32_t n, uint64_t weight)
{
	struct gctop_seg_header *h = p->hdr;
	if (!h->stack_slots)
		return;
	if (n > GCTOP_SEG_STACK_FRAMES)
		n = GCTOP_SEG_STACK_FRAMES;
	struct gctop_seg_stack *t = (struct gctop_seg_stack *)((char *)h + h->stack_offset);
	uint64_t site_key = gctop_seg_key(site), key = gctop_seg_stack_key(site_key, frames, n);
	for (uint32_t i = 0; i < h->stack_slots && i < PUB_MAX_PROBES; i++) {
		struct gctop_seg_stack *s = &t[(key + i) & (h->stack_slots - 1)];
		bool claimed;
		uint64_t k = pub_claim(&s->key, &claimed);
		if (claimed) {
			s->site_key = site_key;
			memcpy(s->frames, frames, n * sizeof(frames[0]));
			s->n_frames = n;
			__atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
			k = key;
		}
		if (k == GCTOP_SEG_KEY_BUSY)
			break;
		if (k == key && pub_same_stack(s, site_key, frames, n)) {
			__atomic_fetch_add(&s->count, 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&s->bytes, weight, __ATOMIC_RELAXED);
			return;
		}
	}
	__atomic_fetch_add(&h->stacks_dropped, 1, __ATOMIC_RELAXED);
	pub_site_stack_dropped(p, site, site_key);
}

void gctop_pub_pause(struct gctop_pub *p, uint64_t duration_ns)
{
	struct gctop_seg_header *h = p->hdr;
	pub_seq_begin(&h->pause_seq);
	uint64_t n = __atomic_load_n(&h->pause_count, __ATOMIC_RELAXED);
	__atomic_store_n(&h->pause_ring[n % GCTOP_SEG_PAUSE_RING], duration_ns, __ATOMIC_RELAXED);
	__atomic_store_n(&h->pause_total_ns, h->pause_total_ns + duration_ns, __ATOMIC_RELAXED);
	__atomic_store_n(&h->pause_count, n + 1, __ATOMIC_RELAXED);
	pub_seq_end(&h->pause_seq);
}

void gctop_pub_unlink(struct gctop_pub *p)
{
	if (!p->linked)
		return;
	/* Only remove the file if it is still ours: a newer publisher may have
	 * renamed its own segment over the name since. */
	struct stat st;
	int fd = open(p->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		uint64_t gen = 0;
		if (fstat(fd, &st) == 0 && pread(fd, &gen, sizeof(gen), offsetof(struct gctop_seg_header, generation)) == (ssize_t)sizeof(gen) &&
		    gen == p->hdr->generation)
			unlink(p->path);
		close(fd);
	}
	p->linked = false;
}

void gctop_pub_close(struct gctop_pub *p)
{
	gctop_pub_unlink(p);
	if (p->hdr)
		munmap(p->hdr, p->size);
	p->hdr = NULL;
}
