#include "collectors/backend.h"

/* Explicit table rather than constructor registration: the probe order is
 * visible here and does not depend on link order. */
extern const struct gt_backend_ops gt_hotspot_ops;
extern const struct gt_backend_ops gt_dotnet_ops;

const struct gt_backend_ops *const gt_backends[] = {
	&gt_hotspot_ops,
	&gt_dotnet_ops,
	NULL,
};
