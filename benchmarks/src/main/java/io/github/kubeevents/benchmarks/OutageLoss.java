package io.github.kubeevents.benchmarks;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.test.cluster.LocalControlPlane;
import io.kubernetes.client.openapi.ApiClient;

/**
 * How many events an API server outage costs: events are recorded at a steady rate (each about its own Pod, so
 * the spam filter plays no part), the server fails for a while, then recovers; at the end every event is either
 * written or dropped with a reason, and the loss is what was not written.
 *
 * <p>Faults: {@code refused} stops the local kube-apiserver (connections refused), {@code frozen} sends it
 * {@code SIGSTOP} (connections accepted, nothing answered), both against a real control plane
 * ({@code KUBEBUILDER_ASSETS}); {@code 503} is a local HTTP stub that answers {@code 503} with
 * {@code Retry-After: 1} during the outage (what an overloaded API server sends) and {@code 201} otherwise.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.kubeevents.benchmarks.OutageLoss \
 *     --fault refused|frozen|503 [--rate 10] [--outage 60] [--writers 4] [--api core/v1|events.k8s.io/v1]
 * </pre>
 */
public final class OutageLoss {

	private OutageLoss() {
	}

	public static void main(String[] args) throws Exception {
		HarnessOptions options = new HarnessOptions(args);
		String fault = options.get("fault", "refused");
		int rate = options.getInt("rate", 10);
		int outageSeconds = options.getInt("outage", 60);
		int writers = options.getInt("writers", 4);
		EventsApi api = "events.k8s.io/v1".equals(options.get("api", "")) ? EventsApi.EVENTS_V1 : EventsApi.CORE_V1;
		Fault target = fault.equals("503") ? new StubServer() : new ControlPlaneFault(fault);
		try (target) {
			EventBroadcaster broadcaster = EventBroadcaster.builder().sinkWriters(writers).eventsApi(api).build();
			broadcaster.startRecordingTo(target.client());
			broadcaster.start();
			EventRecorder recorder = broadcaster.newRecorder(new EventSource("outage-loss", "bench"));
			long periodNanos = TimeUnit.SECONDS.toNanos(1) / rate;
			long start = System.nanoTime();
			long healthy = TimeUnit.SECONDS.toNanos(10);
			long outageEnd = healthy + TimeUnit.SECONDS.toNanos(outageSeconds);
			long publishEnd = outageEnd + TimeUnit.SECONDS.toNanos(10);
			boolean inOutage = false;
			long submitted = 0;
			long submittedInOutage = 0;
			while (true) {
				long elapsed = System.nanoTime() - start;
				if (elapsed >= publishEnd) {
					break;
				}
				if (!inOutage && elapsed >= healthy && elapsed < outageEnd) {
					inOutage = true;
					target.fail();
				}
				else if (inOutage && elapsed >= outageEnd) {
					inOutage = false;
					target.recover();
				}
				recorder.event(InvolvedObject.of("Pod", "v1", "default", "probe-" + submitted), EventType.WARNING,
						"OutageProbe", "event " + submitted);
				submitted++;
				if (inOutage) {
					submittedInOutage++;
				}
				LockSupport.parkNanos(start + submitted * periodNanos - System.nanoTime());
			}
			long drainStart = System.nanoTime();
			boolean drained = broadcaster.shutdown(Duration.ofSeconds(300));
			long written = broadcaster.stats().writes().created() + broadcaster.stats().writes().patched();
			System.out.printf(Locale.ROOT,
					"fault=%s api=%s writers=%d rate=%d/s outage=%ds submitted=%d (during outage %d) written=%d "
							+ "lost=%d dropped=%s drainedAfterRecovery=%s in %.1fs load=%s%n",
					fault, api, writers, rate, outageSeconds, submitted, submittedInOutage, written, submitted - written,
					nonZero(broadcaster.stats().dropped()), drained,
					(System.nanoTime() - drainStart) / 1e9, HarnessOptions.load());
		}
	}

	private static Map<String, Long> nonZero(Map<String, Long> drops) {
		Map<String, Long> result = new java.util.TreeMap<>();
		drops.forEach((reason, count) -> {
			if (count > 0) {
				result.put(reason, count);
			}
		});
		return result;
	}

	/** Where the events go and how it fails. */
	private interface Fault extends AutoCloseable {

		ApiClient client();

		void fail();

		void recover();

		@Override
		void close();

	}

	/** A real kube-apiserver, stopped or frozen. */
	private static final class ControlPlaneFault implements Fault {

		private final LocalControlPlane controlPlane = LocalControlPlane.builder().start();

		private final boolean freeze;

		ControlPlaneFault(String fault) {
			if (!fault.equals("refused") && !fault.equals("frozen")) {
				throw new IllegalArgumentException("--fault must be refused, frozen or 503, was " + fault);
			}
			this.freeze = fault.equals("frozen");
		}

		@Override
		public ApiClient client() {
			return this.controlPlane.adminClient();
		}

		@Override
		public void fail() {
			if (this.freeze) {
				this.controlPlane.freezeApiServer();
			}
			else {
				this.controlPlane.stopApiServer();
			}
		}

		@Override
		public void recover() {
			if (this.freeze) {
				this.controlPlane.thawApiServer();
			}
			else {
				this.controlPlane.startApiServer();
			}
		}

		@Override
		public void close() {
			this.controlPlane.close();
		}

	}

	/** Answers 503 with Retry-After: 1 while failing, else accepts every write. */
	private static final class StubServer implements Fault {

		private final HttpServer server;

		private final AtomicBoolean failing = new AtomicBoolean();

		private final AtomicLong names = new AtomicLong();

		StubServer() throws IOException {
			this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
			this.server.createContext("/", this::handle);
			this.server.setExecutor(Executors.newFixedThreadPool(8, (r) -> {
				Thread thread = new Thread(r, "stub-apiserver");
				thread.setDaemon(true);
				return thread;
			}));
			this.server.start();
		}

		private void handle(HttpExchange exchange) throws IOException {
			exchange.getRequestBody().readAllBytes();
			String body;
			int status;
			if (this.failing.get()) {
				status = 503;
				exchange.getResponseHeaders().add("Retry-After", "1");
				body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"ServiceUnavailable\",\"code\":503}";
			}
			else {
				status = exchange.getRequestMethod().equals("POST") ? 201 : 200;
				body = "{\"kind\":\"Event\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"e" + this.names.incrementAndGet()
						+ "\",\"namespace\":\"default\",\"resourceVersion\":\"1\"}}";
			}
			byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(status, bytes.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(bytes);
			}
		}

		@Override
		public ApiClient client() {
			return new ApiClient().setBasePath("http://127.0.0.1:" + this.server.getAddress().getPort());
		}

		@Override
		public void fail() {
			this.failing.set(true);
		}

		@Override
		public void recover() {
			this.failing.set(false);
		}

		@Override
		public void close() {
			this.server.stop(0);
		}

	}

}
