/* Container and pod ids from crafted /proc/PID/cgroup files, one per shape
 * the runtimes give (collectors/host/container_ids.c), and the hostile or
 * near-miss paths that must give none. */
#include <string.h>

#include "collectors/host/container_ids.h"
#include "tests/unit/check.h"

#define TEXT(s) (s), (sizeof(s) - 1)
#define CID "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define UID "471203d1-984f-477e-9c35-db96487ffe5e"
#define UID_ "471203d1_984f_477e_9c35_db96487ffe5e"

static void expect(const char *text, const char *cid, const char *uid)
{
	struct gt_container_ids ids;
	memset(&ids, 'x', sizeof(ids)); /* the parser must clear what it leaves */
	gt_container_ids_parse(text, strlen(text), &ids);
	CHECK_STR(ids.container_id, cid);
	CHECK_STR(ids.pod_uid, uid);
}

static void test_docker(void)
{
	/* v1, cgroupfs driver: every controller names the container */
	expect("12:pids:/docker/" CID "\n10:memory:/docker/" CID "\n1:name=systemd:/docker/" CID "\n", CID, "");
	/* v2, systemd driver */
	expect("0::/system.slice/docker-" CID ".scope\n", CID, "");
	/* systemd inside the container: the container above its init.scope */
	expect("0::/system.slice/docker-" CID ".scope/init.scope\n", CID, "");
	/* Podman */
	expect("0::/machine.slice/libpod-" CID ".scope/container\n", CID, "");
}

static void test_kubernetes_cgroupfs(void)
{
	/* containerd or Docker under the kubelet's cgroupfs driver, v1 */
	expect("11:memory:/kubepods/besteffort/pod" UID "/" CID "\n", CID, UID);
	/* guaranteed QoS has no class level */
	expect("0::/kubepods/pod" UID "/" CID "\n", CID, UID);
}

static void test_kubernetes_systemd(void)
{
	expect("0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
	       ".slice/cri-containerd-" CID ".scope\n",
	       CID, UID);
	/* CRI-O, guaranteed QoS */
	expect("0::/kubepods.slice/kubepods-pod" UID_ ".slice/crio-" CID ".scope\n", CID, UID);
	/* containerd's systemd path seen through cgroupfs (kind), v1 hybrid */
	expect("4:memory:/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-besteffort.slice/"
	       "kubelet-kubepods-besteffort-pod" UID_ ".slice:cri-containerd:" CID "\n0::/\n",
	       CID, UID);
}

/* Outside gctop's cgroup namespace (the DaemonSet's own, cgroup v2) a
 * path starts inside the hierarchy: the systemd names still place it. */
static void test_kubernetes_relative(void)
{
	expect("0::/../../kubepods-burstable-pod" UID_ ".slice/cri-containerd-" CID ".scope\n", CID, UID);
	expect("0::/../../../kubepods-besteffort.slice/kubepods-besteffort-pod" UID_ ".slice/crio-" CID
	       ".scope\n",
	       CID, UID);
}

/* A process whose group is delegated to it (systemd in a container, a
 * rootless Podman in a pod, Docker in Docker) names every part below its
 * container's group: another container's or pod's ids there are not its. */
#define CID2 "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
#define UID2 "00000000-1111-4222-8333-444444444444"
#define UID2_ "00000000_1111_4222_8333_444444444444"
static void test_nested_fakes(void)
{
	/* another pod and container below its own */
	expect("0::/kubepods/burstable/pod" UID "/" CID "/pod" UID2 "/" CID2 "\n", CID, UID);
	expect("0::/kubepods/pod" UID "/" CID "/kubepods/besteffort/pod" UID2 "/" CID2 "\n", CID, UID);
	expect("0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_
	       ".slice/cri-containerd-" CID ".scope/kubepods-burstable-pod" UID2_ ".slice/docker-" CID2
	       ".scope\n",
	       CID, UID);
	/* a pod's group deeper than directly under the QoS group is none */
	expect("0::/kubepods/burstable/x/pod" UID2 "/" CID2 "\n", CID2, "");
	expect("0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-x.slice/"
	       "kubepods-burstable-x-pod" UID2_ ".slice\n",
	       "", "");
	/* Docker in Docker, systemd in Docker: the outer container */
	expect("0::/docker/" CID "/docker/" CID2 "\n", CID, "");
	expect("0::/system.slice/docker-" CID ".scope/system.slice/docker-" CID2 ".scope\n", CID, "");
	/* a node that is itself a container (kind without a cgroup
	 * namespace): the container is the pod's, below the pod's group */
	expect("0::/docker/" CID2 "/kubepods/besteffort/pod" UID "/" CID "\n", CID, UID);
}

static void test_pod_only(void)
{
	/* a process in the pod's group itself: the pod without a container */
	expect("0::/kubepods/burstable/pod" UID "\n", "", UID);
	/* and a later line that names a container wins over it */
	expect("5:pids:/kubepods/burstable/pod" UID "\n4:memory:/docker/" CID "\n", CID, "");
}

static void test_none(void)
{
	/* this build machine's hybrid cgroup: a 32-hex group is not a container */
	expect("9:name=systemd:/\n4:memory:/process_api/c9413c8b8cf5a705d4d83c4ba5e6cbcc\n0::/\n", "", "");
	expect("0::/user.slice/user-1000.slice/session-2.scope\n", "", "");
	expect("", "", "");
	/* a pod UID outside any kubepods group is some other "pod" */
	expect("0::/apps/pod" UID "/x\n", "", "");
}

static void test_near_misses(void)
{
	/* upper-case hex, 63 and 65 digits, a non-hex digit, and a UUID with
	 * its separators swapped are all some other name */
	expect("0::/docker/0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef\n", "", "");
	expect("0::/docker/" CID "0\n", "", "");
	expect("0::/docker/123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n", "", "");
	expect("0::/docker/g123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n", "", "");
	expect("0::/kubepods/besteffort/pod" UID_ "/x\n", "", "");
	expect("0::/kubepods.slice/kubepods-pod" UID ".slice/x\n", "", "");
	/* a line of another shape is skipped, not read as a path */
	expect(CID "\n", "", "");
}

static void test_hostile(void)
{
	/* an id cut by the end of the text is no id */
	const char text[] = "0::/docker/" CID;
	struct gt_container_ids ids;
	gt_container_ids_parse(text, sizeof(text) - 2, &ids);
	CHECK_STR(ids.container_id, "");
	/* an interior NUL or escape byte inside the id is no id */
	const char nul[] = "0::/docker/0123456789abcdef0123456789abcdef0123456789abcdef012345678\0abcdef\n";
	gt_container_ids_parse(nul, sizeof(nul) - 1, &ids);
	CHECK_STR(ids.container_id, "");
	expect("0::/docker/0123456789abcdef0123456789abcdef0123456789abcdef012345678\033abcdef\n", "", "");
	/* a group the target named itself "-<id>" with junk around the id */
	expect("0::/x/\"},evil=\"-" CID "\n", CID, "");
}

/* gctop reads one path, cut where root's groups end
 * (collectors/host/cgroup_trust.h): what lies past the cut never counts. */
static void test_trusted_part(void)
{
	static const char path[] = "/system.slice/docker-" CID ".scope/user/kubepods/pod" UID "/"
				   "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210";
	size_t real = strlen("/system.slice/docker-" CID ".scope");
	struct gt_container_ids ids;
	memset(&ids, 'x', sizeof(ids));
	gt_container_ids_from_path(path, real, &ids);
	CHECK_STR(ids.container_id, CID);
	CHECK_STR(ids.pod_uid, "");
	/* cut before the container's group: nothing */
	gt_container_ids_from_path(path, strlen("/system.slice"), &ids);
	CHECK_STR(ids.container_id, "");
	CHECK_STR(ids.pod_uid, "");
	gt_container_ids_from_path(path, 0, &ids);
	CHECK_STR(ids.container_id, "");
}

int main(void)
{
	RUN_TEST(test_docker);
	RUN_TEST(test_kubernetes_cgroupfs);
	RUN_TEST(test_kubernetes_systemd);
	RUN_TEST(test_kubernetes_relative);
	RUN_TEST(test_nested_fakes);
	RUN_TEST(test_pod_only);
	RUN_TEST(test_none);
	RUN_TEST(test_near_misses);
	RUN_TEST(test_hostile);
	RUN_TEST(test_trusted_part);
	return check_summary();
}
