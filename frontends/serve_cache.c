#include "frontends/serve_cache.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "frontends/serve_gzip.h"

/* A format not scraped for this long is no longer written each round. */
#define SERVE_KEEP_FORMAT_NS (600 * 1000000000ull)
/* The first round's room for a format's text; a round takes the last one's
 * length and a quarter more. */
#define SERVE_FIRST_TEXT (64 * 1024)
/* Past this, something is wrong (a process's figures take a few KiB). */
#define SERVE_MAX_TEXT ((size_t)1 << 30)

void gt_serve_cache_init(struct gt_serve_cache *c)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	pthread_mutex_init(&c->gzip_lock, NULL);
	pthread_mutex_init(&c->fleet_lock, NULL);
}

void gt_serve_cache_release(struct gt_serve_cache *c, struct gt_serve_snapshot *s)
{
	pthread_mutex_lock(&c->lock);
	bool last = --s->refs == 0;
	if (last && !c->spare) {
		c->spare = s->text;
		c->spare_cap = s->cap;
		s->text = NULL;
	}
	pthread_mutex_unlock(&c->lock);
	if (last) {
		free(s->text);
		free(s->gz);
		free(s);
	}
}

void gt_serve_cache_free(struct gt_serve_cache *c)
{
	for (int f = 0; f < GT_SERVE_FORMATS; f++)
		if (c->current[f])
			gt_serve_cache_release(c, c->current[f]);
	free(c->spare);
	pthread_mutex_destroy(&c->lock);
	pthread_mutex_destroy(&c->gzip_lock);
	pthread_mutex_destroy(&c->fleet_lock);
}

/* Room for a text of cap bytes: the spare when it is large enough. */
static char *text_room(struct gt_serve_cache *c, size_t *cap)
{
	pthread_mutex_lock(&c->lock);
	char *t = c->spare;
	size_t have = c->spare_cap;
	c->spare = NULL;
	pthread_mutex_unlock(&c->lock);
	if (t && have >= *cap) {
		*cap = have;
		return t;
	}
	free(t);
	return *cap ? malloc(*cap) : NULL;
}

/* A text that grows as a stream writes it. open_memstream would do this,
 * but it grows from nothing and zeroes each larger buffer: with a fleet's
 * megabyte of text that was a sixth of --serve's CPU (perf, 60 idle JVMs).
 * This one starts at the last round's size and only copies. */
struct text_buf {
	char *text;
	size_t len, cap;
};

static ssize_t text_buf_write(void *cookie, const char *data, size_t size)
{
	struct text_buf *b = cookie;
	if (size > b->cap - b->len) {
		size_t cap = b->cap ? b->cap : SERVE_FIRST_TEXT;
		while (cap - b->len < size) {
			if (cap >= SERVE_MAX_TEXT)
				return -1;
			cap *= 2;
		}
		char *t = realloc(b->text, cap);
		if (!t)
			return -1;
		b->text = t;
		b->cap = cap;
	}
	memcpy(b->text + b->len, data, size);
	b->len += size;
	return (ssize_t)size;
}

/* Builds one format's text for the fleet as it is now; NULL when out of memory. */
static struct gt_serve_snapshot *snapshot_build(struct gt_serve_cache *c, const struct gt_metrics_target *t,
						size_t n, enum gt_metrics_format f)
{
	struct gt_serve_snapshot *s = calloc(1, sizeof(*s));
	struct text_buf b = { .cap = c->last_len[f] + c->last_len[f] / 4 };
	b.text = s ? text_room(c, &b.cap) : NULL;
	if (!b.text)
		b.cap = 0;
	FILE *m = s ? fopencookie(&b, "w", (cookie_io_functions_t){ .write = text_buf_write }) : NULL;
	int rc = m ? gt_metrics_write(m, f, &c->metrics, t, n) : -1;
	if (m && fclose(m) != 0)
		rc = -1;
	/* an empty text still needs a buffer to hand to the server */
	if (rc == 0 && !b.text && !(b.text = malloc(1)))
		rc = -1;
	if (rc != 0) {
		free(b.text);
		free(s);
		return NULL;
	}
	c->last_len[f] = b.len;
	s->text = b.text;
	s->len = b.len;
	s->cap = b.cap;
	s->refs = 1;
	return s;
}

/* Format f's text of the fleet's figures (fleet_lock held), or NULL when
 * out of memory. */
static struct gt_serve_snapshot *exposition_build(struct gt_serve_cache *c, enum gt_metrics_format f)
{
	const struct gt_fleet *fleet = c->fleet;
	struct gt_metrics_target *t = fleet->count ? calloc(fleet->count, sizeof(*t)) : NULL;
	if (fleet->count && !t)
		return NULL;
	/* the processes with a sample of their own, in pid order */
	size_t n = 0;
	for (size_t i = 0; i < fleet->count; i++) {
		const struct gt_fleet_member *m = &fleet->m[i];
		if (!gt_fleet_member_live(m))
			continue;
		/* the sample as the derive step held it to the plausibility
		 * rules (model/plausible.h): n/a writes no series */
		const struct gt_sample *held =
			m->session->live.have_derived ? &m->session->live.derived.cur : &m->session->prev;
		t[n++] = (struct gt_metrics_target){ .info = &m->session->info, .sample = held,
						     .derived = &m->session->live.derived, .pauses = &m->pauses,
						     .watch_start_s = m->watch_start_s,
						     .findings = m->findings ? m->findings->found : NULL,
						     .n_findings = m->findings ? m->findings->n : 0 };
	}
	struct gt_serve_snapshot *s = snapshot_build(c, t, n, f);
	free(t);
	return s;
}

/* A reference to format f's current text, or NULL when it is not kept. */
static struct gt_serve_snapshot *cache_current(struct gt_serve_cache *c, enum gt_metrics_format f)
{
	pthread_mutex_lock(&c->lock);
	struct gt_serve_snapshot *s = c->current[f];
	if (s)
		s->refs++;
	pthread_mutex_unlock(&c->lock);
	return s;
}

struct gt_serve_snapshot *gt_serve_cache_take(struct gt_serve_cache *c, enum gt_metrics_format f)
{
	pthread_mutex_lock(&c->lock);
	c->asked_ns[f] = gt_mono_ns();
	pthread_mutex_unlock(&c->lock);
	struct gt_serve_snapshot *s = cache_current(c, f);
	if (s)
		return s;
	pthread_mutex_lock(&c->fleet_lock);
	/* a round may have written it meanwhile; none can while this is held */
	s = cache_current(c, f);
	if (!s && (s = exposition_build(c, f))) {
		pthread_mutex_lock(&c->lock);
		c->current[f] = s;
		s->refs++;
		pthread_mutex_unlock(&c->lock);
	}
	pthread_mutex_unlock(&c->fleet_lock);
	return s;
}

int gt_serve_cache_gzip(struct gt_serve_cache *c, struct gt_serve_snapshot *s)
{
	pthread_mutex_lock(&c->gzip_lock);
	if (!s->gz && !s->gz_failed)
		s->gz_failed = gt_serve_gzip(s->text, s->len, &s->gz, &s->gz_len) != 0;
	int rc = s->gz ? 0 : -1;
	pthread_mutex_unlock(&c->gzip_lock);
	return rc;
}

void gt_serve_cache_publish(struct gt_serve_cache *c)
{
	uint64_t now = gt_mono_ns();
	for (int f = 0; f < GT_SERVE_FORMATS; f++) {
		pthread_mutex_lock(&c->lock);
		bool keep = c->asked_ns[f] && now - c->asked_ns[f] < SERVE_KEEP_FORMAT_NS;
		pthread_mutex_unlock(&c->lock);
		struct gt_serve_snapshot *s = keep ? exposition_build(c, (enum gt_metrics_format)f) : NULL;
		if (keep && !s)
			continue;
		pthread_mutex_lock(&c->lock);
		struct gt_serve_snapshot *old = c->current[f];
		c->current[f] = s;
		pthread_mutex_unlock(&c->lock);
		if (old)
			gt_serve_cache_release(c, old);
	}
}
