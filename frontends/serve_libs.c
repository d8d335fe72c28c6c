/* --serve's libraries, loaded when it starts: see serve_libs.h for why. */
#include "frontends/serve_libs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>

enum serve_lib {
#define SERVE_LIB_INDEX(id, soname, package) SERVE_LIB_##id,
	GT_SERVE_LIBS(SERVE_LIB_INDEX)
#undef SERVE_LIB_INDEX
	SERVE_LIB_COUNT
};

static const struct {
	const char *soname, *package;
} serve_lib_names[SERVE_LIB_COUNT] = {
#define SERVE_LIB_NAME(id, soname, package) [SERVE_LIB_##id] = { soname, package },
	GT_SERVE_LIBS(SERVE_LIB_NAME)
#undef SERVE_LIB_NAME
};

struct gt_serve_libs gt_serve_libs;

static pthread_mutex_t serve_libs_lock = PTHREAD_MUTEX_INITIALIZER;
static bool serve_libs_loaded;

/* Every library opened and every function found, or a sentence. The
 * handles are never closed: the pointers live as long as gctop, and
 * GnuTLS's state must not go while libmicrohttpd's threads may use it. */
static int load_all(struct gt_error *err)
{
	void *h[SERVE_LIB_COUNT];
	for (int i = 0; i < SERVE_LIB_COUNT; i++) {
		/* RTLD_NOW: a library of the wrong version fails here, whole,
		 * not at its first call in a scrape */
		h[i] = dlopen(serve_lib_names[i].soname, RTLD_NOW | RTLD_LOCAL);
		if (!h[i])
			return gt_fail(err, GT_EXIT_FAILURE, "--serve needs %s, which cannot be loaded (install the Debian "
				       "package %s): %s", serve_lib_names[i].soname, serve_lib_names[i].package, dlerror());
	}
	void *sym;
#define SERVE_LIB_RESOLVE(lib, name)                                                                          \
	if (!(sym = dlsym(h[SERVE_LIB_##lib], #name)))                                                        \
		return gt_fail(err, GT_EXIT_FAILURE, "--serve needs %s from %s, which lacks it (install the "   \
			       "Debian package %s, current)", #name, serve_lib_names[SERVE_LIB_##lib].soname,  \
			       serve_lib_names[SERVE_LIB_##lib].package);                                     \
	*(void **)&gt_serve_libs.name = sym;
	GT_SERVE_LIB_FUNCTIONS(SERVE_LIB_RESOLVE)
#undef SERVE_LIB_RESOLVE
	return 0;
}

int gt_serve_libs_load(struct gt_error *err)
{
	pthread_mutex_lock(&serve_libs_lock);
	int rc = serve_libs_loaded ? 0 : load_all(err);
	if (rc == 0)
		serve_libs_loaded = true;
	pthread_mutex_unlock(&serve_libs_lock);
	return rc;
}
