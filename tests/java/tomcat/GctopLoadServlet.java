// The Tomcat test's webapp (tests/integration/tomcat_requests.sh): /work
// allocates 256 KiB a request (32 arrays of 8 KiB, too large for the JIT to
// remove), /buffer answers each request with one 256 KiB buffer (a server's
// large response: no humongous object on G1 with 1 MiB regions, but too
// large for most TLABs), /alloc answers "WALL_MS BYTES", the JVM's own total of bytes
// allocated by every thread (com.sun.management.ThreadMXBean, counted by
// HotSpot per thread as TLABs and objects are handed out, dead threads
// included): the allocation truth, independent of gctop and its agent.
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.management.ManagementFactory;

public class GctopLoadServlet extends HttpServlet {
	private static final int CHUNKS = 32;
	private static final int CHUNK_BYTES = 8192;
	private static final int BUFFER_BYTES = 256 * 1024;
	static volatile long sink;

	@Override
	protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
		resp.setContentType("text/plain");
		if ("/alloc".equals(req.getServletPath())) {
			com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
			resp.getWriter().print(System.currentTimeMillis() + " " + t.getTotalThreadAllocatedBytes() + "\n");
			return;
		}
		if ("/buffer".equals(req.getServletPath())) {
			byte[] b = new byte[BUFFER_BYTES];
			b[(int) (System.nanoTime() & (BUFFER_BYTES - 1))] = 1;
			resp.setContentLength(BUFFER_BYTES);
			resp.getOutputStream().write(b);
			return;
		}
		long s = 0;
		for (int i = 0; i < CHUNKS; i++) {
			byte[] b = new byte[CHUNK_BYTES];
			b[i] = 1;
			s += b.length + b[i];
			sink = s;
		}
		resp.getWriter().print(s + "\n");
	}
}
