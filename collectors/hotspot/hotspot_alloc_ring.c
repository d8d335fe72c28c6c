#include "collectors/hotspot/hotspot_alloc_ring.h"

/* The i-th reading, oldest first. */
static unsigned ring_index(const struct hotspot_alloc_ring *g, unsigned i)
{
	return (g->next + HOTSPOT_ALLOC_RING_LEN - g->n + i) % HOTSPOT_ALLOC_RING_LEN;
}

void hotspot_alloc_ring_push(struct hotspot_alloc_ring *g, uint64_t ns, uint64_t total)
{
	if (g->n) {
		unsigned last = ring_index(g, g->n - 1);
		if (ns <= g->ns[last])
			return;
		if (total < g->total[last])
			g->n = 0;
	}
	g->ns[g->next] = ns;
	g->total[g->next] = total;
	g->next = (g->next + 1) % HOTSPOT_ALLOC_RING_LEN;
	if (g->n < HOTSPOT_ALLOC_RING_LEN)
		g->n++;
}

int hotspot_alloc_ring_at(const struct hotspot_alloc_ring *g, uint64_t ns, uint64_t *total)
{
	if (!g->n || ns < g->ns[ring_index(g, 0)])
		return -1;
	if (ns > g->ns[ring_index(g, g->n - 1)])
		return 1;
	unsigned hi = 0;
	while (g->ns[ring_index(g, hi)] < ns)
		hi++;
	unsigned b = ring_index(g, hi);
	if (g->ns[b] == ns || hi == 0) {
		*total = g->total[b];
		return 0;
	}
	unsigned a = ring_index(g, hi - 1);
	/* Linear between two polls: what they bound is all that is known. */
	double frac = (double)(ns - g->ns[a]) / (double)(g->ns[b] - g->ns[a]);
	*total = g->total[a] + (uint64_t)(frac * (double)(g->total[b] - g->total[a]) + 0.5);
	return 0;
}

int hotspot_alloc_ring_near(const struct hotspot_alloc_ring *g, uint64_t ns, uint64_t past_max_ns, uint64_t *total)
{
	int rc = hotspot_alloc_ring_at(g, ns, total);
	if (rc <= 0)
		return rc;
	if (g->n < 2)
		return HOTSPOT_ALLOC_RING_ONE;
	unsigned b = ring_index(g, g->n - 1), a = ring_index(g, g->n - 2);
	if (ns - g->ns[b] > past_max_ns)
		return 1;
	double rate = (double)(g->total[b] - g->total[a]) / (double)(g->ns[b] - g->ns[a]);
	*total = g->total[b] + (uint64_t)(rate * (double)(ns - g->ns[b]) + 0.5);
	return 0;
}
