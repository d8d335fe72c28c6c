/* gctop --web-config FILE: reading the file and the files it names, and
 * checking what they hold before --serve listens (web_config.h). The
 * parser (web_config.c) sees bytes only, so its fuzz target needs no file.
 *
 * Links are followed: a Kubernetes Secret's files are links into its
 * ..data directory. The file is the administrator's (gctop runs as root
 * with it); what is checked is that each is a regular file of a sane size
 * and that the certificate, its key and the CA parse, so a mistake is one
 * sentence at the start rather than a handshake failure at each scrape. */
#include "frontends/web_config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/sanitize.h"
#include "frontends/serve_libs.h"

/* Reads name (relative to dirfd) whole, at most max bytes, NUL-terminated;
 * NULL with errno (EFBIG when larger, EINVAL when not a regular file). */
static char *read_small(int dirfd, const char *name, size_t max, size_t *len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	char *buf = NULL;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		errno = EINVAL;
		goto out;
	}
	if ((size_t)st.st_size > max) {
		errno = EFBIG;
		goto out;
	}
	buf = malloc(max + 1);
	size_t n = 0;
	ssize_t r = 1;
	while (buf && n <= max && (r = read(fd, buf + n, max + 1 - n)) > 0)
		n += (size_t)r;
	if (buf && (r < 0 || n > max)) {
		int e = r < 0 ? errno : EFBIG;
		free(buf);
		buf = NULL;
		errno = e;
	} else if (buf) {
		buf[n] = '\0';
		*len = n;
	}
out:
	close(fd);
	return buf;
}

static const char *read_why(int e)
{
	return e == EFBIG ? "too large" : e == EINVAL ? "not a regular file" : strerror(e);
}

static const char *const pem_keys[GT_WEB_PEMS] = { "cert_file", "key_file", "client_ca_file" };

/* Each PEM named by a file, read from dirfd (the config file's directory). */
static int read_pems(struct gt_web_config *c, int dirfd, struct gt_error *err)
{
	for (int p = 0; p < GT_WEB_PEMS; p++) {
		if (!c->pem_file[p])
			continue;
		size_t len = 0;
		c->pem[p] = read_small(dirfd, c->pem_file[p], GT_WEB_MAX_PEM, &len);
		if (!c->pem[p]) {
			char name[256];
			return gt_fail(err, GT_EXIT_BAD_CONFIG, "%s '%s' cannot be read: %s", pem_keys[p],
				       gt_sanitize(name, sizeof(name), c->pem_file[p], GT_SANITIZE_ASCII), read_why(errno));
		}
		if (memchr(c->pem[p], '\0', len))
			return gt_fail(err, GT_EXIT_BAD_CONFIG, "%s is not PEM text (it holds a NUL byte)", pem_keys[p]);
	}
	return 0;
}

static gnutls_datum_t datum(char *pem)
{
	return (gnutls_datum_t){ (unsigned char *)pem, (unsigned)strlen(pem) };
}

/* The certificate and its key make a pair, and the client CA holds at least
 * one certificate: what libmicrohttpd would otherwise refuse with no word
 * of why. */
static int check_pems(const struct gt_web_config *c, struct gt_error *err)
{
	gnutls_certificate_credentials_t cred;
	if (gt_serve_libs.gnutls_certificate_allocate_credentials(&cred) != GNUTLS_E_SUCCESS)
		return gt_fail(err, GT_EXIT_FAILURE, "out of memory");
	gnutls_datum_t cert = datum(c->pem[GT_WEB_CERT]), key = datum(c->pem[GT_WEB_KEY]);
	int rc = gt_serve_libs.gnutls_certificate_set_x509_key_mem(cred, &cert, &key, GNUTLS_X509_FMT_PEM);
	if (rc < 0)
		gt_fail(err, GT_EXIT_BAD_CONFIG, "the certificate and key of tls_server_config are not a PEM "
			"certificate and its key: %s", gt_serve_libs.gnutls_strerror(rc));
	if (rc >= 0 && c->pem[GT_WEB_CLIENT_CA]) {
		gnutls_datum_t ca = datum(c->pem[GT_WEB_CLIENT_CA]);
		int n = gt_serve_libs.gnutls_certificate_set_x509_trust_mem(cred, &ca, GNUTLS_X509_FMT_PEM);
		const char *why = n < 0 ? gt_serve_libs.gnutls_strerror(n) : "";
		if (n <= 0)
			rc = gt_fail(err, GT_EXIT_BAD_CONFIG, "the client CA of tls_server_config holds no PEM "
				     "certificate%s%s", n < 0 ? ": " : "", why);
	}
	gt_serve_libs.gnutls_certificate_free_credentials(cred);
	return rc < 0 ? -1 : 0;
}

/* The directory holding path, opened for the names the file gives. */
static int open_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *dir = slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
	int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	free(dir);
	return fd;
}

static int load(const char *path, struct gt_web_config *c, struct gt_error *err)
{
	size_t len = 0;
	char *text = read_small(AT_FDCWD, path, GT_WEB_MAX_FILE, &len);
	if (!text)
		return gt_fail(err, GT_EXIT_BAD_CONFIG, "cannot be read: %s", read_why(errno));
	int rc = gt_web_config_parse(text, len, c, err);
	explicit_bzero(text, len);
	free(text);
	if (rc != 0)
		return -1;
	int dirfd = c->tls ? open_dir_of(path) : -2;
	if (dirfd == -1)
		rc = gt_fail(err, GT_EXIT_BAD_CONFIG, "its directory cannot be opened: %s", strerror(errno));
	else if (c->tls)
		rc = read_pems(c, dirfd, err) != 0 || check_pems(c, err) != 0 ? -1 : 0;
	if (dirfd >= 0)
		close(dirfd);
	if (rc != 0)
		gt_web_config_free(c);
	return rc;
}

int gt_web_config_load(const char *path, struct gt_web_config *c, struct gt_error *err)
{
	if (load(path, c, err) == 0)
		return 0;
	/* one sentence: the file, then what is wrong with it */
	char name[256], why[sizeof(err->msg)];
	snprintf(why, sizeof(why), "%s", err->msg);
	return gt_fail(err, err->code, "--web-config %s: %s", gt_sanitize(name, sizeof(name), path, GT_SANITIZE_ASCII), why);
}
