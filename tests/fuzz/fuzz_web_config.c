/* libFuzzer target for gctop --web-config's parser (frontends/web_config.c):
 * the exporter-toolkit's YAML, walked by libyaml's events. Whatever the
 * bytes, the parse returns 0 with a config that keeps its promises (each
 * user a non-empty name without a colon and a 60-character bcrypt hash, TLS
 * on exactly when a certificate and key are named or given, the versions in
 * order) or -1 with a one-line sentence and GT_EXIT_BAD_CONFIG. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/serve_libs.h"
#include "frontends/web_config.h"

static void require(int ok)
{
	if (!ok)
		abort();
}

static void check_config(const struct gt_web_config *c)
{
	require(c->n_users <= GT_WEB_MAX_USERS);
	for (size_t i = 0; i < c->n_users; i++) {
		const struct gt_web_user *u = &c->users[i];
		require(u->name[0] && !strchr(u->name, ':') && strlen(u->name) <= GT_WEB_MAX_USER_NAME);
		require(strlen(u->hash) == GT_WEB_BCRYPT_LEN && !strncmp(u->hash, "$2", 2));
	}
	bool cert = c->pem_file[GT_WEB_CERT] || c->pem[GT_WEB_CERT];
	bool key = c->pem_file[GT_WEB_KEY] || c->pem[GT_WEB_KEY];
	require(!c->tls || (cert && key));
	require(c->tls || (!cert && !key && c->client_auth == GT_WEB_NO_CLIENT_CERT));
	require(c->min_version <= c->max_version || !c->tls);
	bool ca = c->pem_file[GT_WEB_CLIENT_CA] || c->pem[GT_WEB_CLIENT_CA];
	require(ca == (c->client_auth != GT_WEB_NO_CLIENT_CERT));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* libyaml, as --serve loads it (frontends/serve_libs.h); once */
	struct gt_error load_err;
	require(gt_serve_libs_load(&load_err) == 0);
	/* An exact-size heap copy, so ASan sees any read past the end. */
	char *text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	struct gt_web_config c;
	struct gt_error err = { 0 };
	if (gt_web_config_parse(text, size, &c, &err) == 0) {
		check_config(&c);
		gt_web_config_free(&c);
	} else {
		require(err.code == GT_EXIT_BAD_CONFIG || err.code == GT_EXIT_FAILURE);
		require(err.msg[0] && !strchr(err.msg, '\n'));
	}
	free(text);
	return 0;
}
