/* gctop --serve --web-config FILE: TLS and basic authentication in the
 * format of the Prometheus exporter-toolkit (docs/web-configuration.md),
 * which node_exporter and every official exporter read, so one file and one
 * Secret serve them all:
 *
 *   tls_server_config:
 *     cert_file: server.crt        (or cert: inline PEM)
 *     key_file: server.key         (or key: inline PEM)
 *     client_ca_file: ca.crt       (or client_ca: inline PEM)
 *     client_auth_type: RequireAndVerifyClientCert
 *     min_version: TLS12
 *     max_version: TLS13
 *   http_server_config:
 *     http2: false
 *   basic_auth_users:
 *     prometheus: $2y$10$...       (bcrypt)
 *
 * Relative file names are taken from the directory of FILE, as the toolkit
 * takes them. Strict, as the toolkit's yaml.UnmarshalStrict: an unknown
 * key, a key twice, a value of the wrong kind, a file that cannot be read, a
 * certificate and key that are not a pair, a hash that is not bcrypt, each
 * refuses the whole file with one sentence (GT_EXIT_BAD_CONFIG). Keys the
 * toolkit knows and gctop does not do (cipher_suites, headers, rate_limit,
 * the client_auth_types that take any certificate) are refused by name,
 * never ignored: a file that asks for them must not pass for applied.
 *
 * The file is read once, when --serve starts (the toolkit reads it on each
 * request): a new certificate or user takes a restart. */
#ifndef GCTOP_FRONTENDS_WEB_CONFIG_H
#define GCTOP_FRONTENDS_WEB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

/* The file itself is a few hundred bytes; inline PEM makes it a few KiB. */
#define GT_WEB_MAX_FILE ((size_t)64 * 1024)
/* A certificate chain, key or CA bundle it names. */
#define GT_WEB_MAX_PEM ((size_t)1024 * 1024)
#define GT_WEB_MAX_USERS 64u
#define GT_WEB_MAX_USER_NAME 128u
/* "$2b$" cost "$" 22 salt characters and 31 hash characters. */
#define GT_WEB_BCRYPT_LEN 60u
/* A bcrypt cost the toolkit's docs call slow already ("a few seconds"):
 * each first check of a password runs it, so a higher one is refused. */
#define GT_WEB_MAX_BCRYPT_COST 18u

enum gt_web_client_auth {
	GT_WEB_NO_CLIENT_CERT = 0,      /* none asked for */
	GT_WEB_VERIFY_IF_GIVEN,         /* one given must be signed by the client CA */
	GT_WEB_REQUIRE_AND_VERIFY,      /* one must be given, signed by the client CA */
};

/* TLS versions, by their minor number: TLS10 is 0 ... TLS13 is 3. */
enum gt_web_tls_version { GT_WEB_TLS10 = 0, GT_WEB_TLS11, GT_WEB_TLS12, GT_WEB_TLS13 };

struct gt_web_user {
	char name[GT_WEB_MAX_USER_NAME + 1];
	char hash[GT_WEB_BCRYPT_LEN + 1];
};

/* The places a PEM comes from: the file named, else the inline text. */
enum gt_web_pem { GT_WEB_CERT, GT_WEB_KEY, GT_WEB_CLIENT_CA, GT_WEB_PEMS };

struct gt_web_config {
	bool tls;                           /* TLS is on (some tls_server_config key is set) */
	char *pem_file[GT_WEB_PEMS];        /* the names as written; NULL when not given */
	char *pem[GT_WEB_PEMS];             /* the PEM text (inline, or read by gt_web_config_load) */
	char *client_auth_type;             /* as written; NULL when not given */
	enum gt_web_client_auth client_auth;
	enum gt_web_tls_version min_version, max_version;
	struct gt_web_user users[GT_WEB_MAX_USERS];
	size_t n_users;
};

/* Parses the file's text (len bytes, not NUL-terminated) into c, whose
 * PEMs from files are not read yet. Returns 0, or -1 with err
 * (GT_EXIT_BAD_CONFIG) saying where and why; c is then freed. */
int gt_web_config_parse(const char *text, size_t len, struct gt_web_config *c, struct gt_error *err);

/* Reads path (at most GT_WEB_MAX_FILE bytes), parses it, reads the files it
 * names from path's directory and checks what they hold (a certificate and
 * its key, a CA). Returns 0, or -1 with err (GT_EXIT_BAD_CONFIG). */
int gt_web_config_load(const char *path, struct gt_web_config *c, struct gt_error *err);

void gt_web_config_free(struct gt_web_config *c);

#endif
