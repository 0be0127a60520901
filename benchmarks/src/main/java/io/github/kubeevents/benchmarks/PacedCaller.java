package io.github.kubeevents.benchmarks;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.sink.EventSink;
import org.HdrHistogram.Histogram;

/**
 * What one {@code eventf} costs the caller at a realistic, fixed rate (issue 14), where JMH's saturating loop
 * cannot show it: at 20,000 calls/s the distribution thread sleeps between events, so the cost of waking it
 * lands on the caller.
 *
 * <p>One caller thread records at {@code --rate} calls/s on an absolute schedule (call {@code i} is due at
 * {@code start + i / rate}): it parks while the next call is more than 200 µs away and otherwise yields, and a
 * late call is made at once, never skipped, so a stall shows as lateness ({@code behind_max_us},
 * {@code late_calls}) instead of being hidden. The process's CPU time over the run ({@code cpu_s}) shows what the
 * threads behind the call cost. Only the call itself is timed ({@link System#nanoTime()} before and
 * after) into an HDR histogram (3 significant digits) after {@code --warmup} seconds; calls over 10 µs are counted
 * exactly. The JVM is cold at the start: the warm-up is part of the run, and drops are counted over the whole run.
 *
 * <p>Workload (identical in {@code benchmarks/client-go/cmd/paced}): {@code --objects} Pods
 * {@code prod/web-<i>} (uid {@code uid-<i>}), call {@code i} on Pod {@code i % objects}, type Warning, reason
 * FailedCreate, message pattern {@code "Error creating: %s"}; the argument is {@code "quota exceeded"} for 9 calls
 * in 10 and {@code "quota exceeded #<i>"} (a new message) for every 10th. The argument is built before the clock
 * starts. One core/v1 sink with the default correlator: {@code --sink instant} answers at once; {@code --sink
 * stuck} never answers (its subscriber queue fills and the rest is dropped there); {@code --sink official} and
 * {@code --sink fabric8} write core/v1 Events to a local kube-apiserver through the official client or a fabric8
 * {@code KubernetesClient} ({@code PacedClientSink}; the sink's threads then compete with the caller for the CPU,
 * and the spam filter, burst 25 per object, lets about 25 writes per Pod through).
 *
 * <p>Uses only API that exists before and after the lifecycle rewrite ({@code EventBroadcaster.builder()},
 * {@code newRecorder}, {@code eventf(InvolvedObject, ...)}, {@code startRecordingToSink}); the sink is a
 * {@link Proxy} so its patch parameter type is never named, and the drop counts are read by reflection
 * ({@code stats()} or {@code droppedByReason()}), so this source builds against 9587d34 and the new main alike.
 *
 * <p>Run: {@code java -Xms512m -Xmx512m -cp benchmarks/target/benchmarks.jar
 * io.github.kubeevents.benchmarks.PacedCaller --rate 20000 --sink instant} (options: {@code --rate},
 * {@code --warmup} and {@code --duration} in seconds, {@code --objects}, {@code --sink instant|stuck|official|fabric8},
 * {@code --label}, {@code --incoming-capacity}, {@code --subscriber-capacity}, {@code --tracing
 * off|capture|annotation}:
 * Micrometer Tracing with the caller inside a span, {@code PacedTracing}). The last line, starting with
 * {@code RESULT}, is what {@code benchmarks/paced.sh} reads.
 */
public final class PacedCaller {

	private static final long TEN_MICROS = 10_000;

	private static final long PARK_THRESHOLD_NANOS = 200_000;

	private static final long PARK_MARGIN_NANOS = 100_000;

	private PacedCaller() {
	}

	public static void main(String[] args) throws Exception {
		HarnessOptions options = new HarnessOptions(args);
		int rate = options.getInt("rate", 20_000);
		int warmupSeconds = options.getInt("warmup", 5);
		int durationSeconds = options.getInt("duration", 20);
		int objects = options.getInt("objects", 200);
		String sinkKind = options.get("sink", "instant");
		String label = options.get("label", "kube-events");
		boolean throughClient = sinkKind.equals("official") || sinkKind.equals("fabric8");
		if (!sinkKind.equals("instant") && !sinkKind.equals("stuck") && !throughClient) {
			throw new IllegalArgumentException("--sink must be instant, stuck, official or fabric8, was " + sinkKind);
		}
		CountDownLatch release = new CountDownLatch(1);
		EventBroadcaster broadcaster;
		if (throughClient) {
			// a real kube-apiserver (PacedClientSink, by reflection: this class builds against older versions)
			broadcaster = (EventBroadcaster) Class.forName("io.github.kubeevents.benchmarks.PacedClientSink")
				.getMethod("start", String.class, int.class, int.class)
				.invoke(null, sinkKind, options.getInt("incoming-capacity", 0), options.getInt("subscriber-capacity", 0));
		}
		else {
			String tracing = options.get("tracing", "off");
			if (!tracing.equals("off")) {
				// Micrometer Tracing with the starter's capture (PacedTracing, by reflection as above)
				EventBroadcaster.Builder builder = (EventBroadcaster.Builder) Class
					.forName("io.github.kubeevents.benchmarks.PacedTracing")
					.getMethod("configure", EventBroadcaster.Builder.class, String.class)
					.invoke(null, EventBroadcaster.builder(), tracing);
				broadcaster = builder.build();
			}
			else {
				broadcaster = (options.has("incoming-capacity") || options.has("subscriber-capacity"))
						? withCapacities(options) : EventBroadcaster.builder().build();
			}
			broadcaster.startRecordingToSink(sink(sinkKind.equals("stuck") ? release : null));
		}
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(new EventSource("benchmark", "host"));
		InvolvedObject[] pods = new InvolvedObject[objects];
		for (int i = 0; i < objects; i++) {
			pods[i] = InvolvedObject.of("Pod", "v1", "prod", "web-" + i).withUid("uid-" + i);
		}

		long warmupCalls = (long) rate * warmupSeconds;
		long totalCalls = warmupCalls + (long) rate * durationSeconds;
		double periodNanos = 1e9 / rate;
		Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
		long over10us = 0;
		long lateCalls = 0;
		long behindMax = 0;
		long[] warmupDrops = { 0, 0 };
		long start = System.nanoTime();
		for (long i = 0; i < totalCalls; i++) {
			long due = start + (long) (i * periodNanos);
			if (i == warmupCalls && i > 0) {
				// outside the timed call; the next call is a few microseconds late at most
				warmupDrops = queueFullDrops(broadcaster);
			}
			long now = System.nanoTime();
			while (now < due) {
				long ahead = due - now;
				if (ahead > PARK_THRESHOLD_NANOS) {
					LockSupport.parkNanos(ahead - PARK_MARGIN_NANOS);
				}
				else {
					Thread.yield();
				}
				now = System.nanoTime();
			}
			String arg = (i % 10 == 9) ? "quota exceeded #" + i : "quota exceeded";
			InvolvedObject pod = pods[(int) (i % objects)];
			long t0 = System.nanoTime();
			recorder.eventf(pod, EventType.WARNING, "FailedCreate", "Error creating: %s", arg);
			long t1 = System.nanoTime();
			if (i >= warmupCalls) {
				long took = t1 - t0;
				histogram.recordValue(Math.min(took, histogram.getHighestTrackableValue()));
				if (took > TEN_MICROS) {
					over10us++;
				}
				long behind = t0 - due;
				behindMax = Math.max(behindMax, behind);
				if (behind > periodNanos) {
					lateCalls++;
				}
			}
		}
		long elapsed = System.nanoTime() - start;
		double cpuSeconds = processCpuNanos() / 1e9;

		// let the queues settle before reading the drop counters (an instant sink drains; a stuck one stays full)
		long settleDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		while (incomingDepth(broadcaster) > 0 && System.nanoTime() < settleDeadline) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
		}
		if (sinkKind.equals("instant")) {
			while (subscriberDepth(broadcaster) > 0 && System.nanoTime() < settleDeadline) {
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
			}
		}
		Map<String, Long> drops = drops(broadcaster);
		long[] queueFullDrops = queueFullDrops(broadcaster);
		String incomingFull = (queueFullDrops[1] < 0) ? "?" : String.valueOf(queueFullDrops[0]);
		String subscriberFull = (queueFullDrops[1] < 0) ? "?" : String.valueOf(queueFullDrops[1]);
		String incomingWarmup = (warmupDrops[1] < 0) ? "?" : String.valueOf(warmupDrops[0]);
		String subscriberWarmup = (warmupDrops[1] < 0) ? "?" : String.valueOf(warmupDrops[1]);

		StringBuilder dropText = new StringBuilder();
		drops.forEach((reason, count) -> dropText.append(dropText.length() > 0 ? "," : "").append(reason)
			.append(':').append(count));
		System.out.printf(Locale.ROOT,
				"%s rate=%d/s sink=%s objects=%d warmup=%ds measured=%ds (%d calls, took %.1f s) load=%s%n", label,
				rate, sinkKind, objects, warmupSeconds, durationSeconds, totalCalls - warmupCalls, elapsed / 1e9,
				HarnessOptions.load());
		System.out.printf(Locale.ROOT,
				"  caller ns: p50 %d  p99 %d  p99.9 %d  p99.99 %d  max %d  mean %.0f; calls over 10 us: %d%n",
				histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(99),
				histogram.getValueAtPercentile(99.9), histogram.getValueAtPercentile(99.99), histogram.getMaxValue(),
				histogram.getMean(), over10us);
		System.out.printf(Locale.ROOT,
				"  schedule: max %d us behind, %d calls started over one period late; process CPU %.1f s%n",
				behindMax / 1000, lateCalls, cpuSeconds);
		System.out.printf(Locale.ROOT,
				"  drops (whole run incl. warm-up): queue_full incoming %s, subscriber %s (of which in the warm-up: %s, %s);"
						+ " all reasons {%s}%n",
				incomingFull, subscriberFull, incomingWarmup, subscriberWarmup, dropText);
		System.out.printf(Locale.ROOT,
				"RESULT impl=%s rate=%d sink=%s calls=%d p50=%d p99=%d p999=%d p9999=%d max=%d over10us=%d "
						+ "behind_max_us=%d late_calls=%d drop_incoming=%s drop_subscriber=%s drop_incoming_warmup=%s "
						+ "drop_subscriber_warmup=%s cpu_s=%.1f drops=%s load=%s%n",
				label, rate, sinkKind, totalCalls - warmupCalls, histogram.getValueAtPercentile(50),
				histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.9),
				histogram.getValueAtPercentile(99.99), histogram.getMaxValue(), over10us, behindMax / 1000, lateCalls,
				incomingFull, subscriberFull, incomingWarmup, subscriberWarmup, cpuSeconds, dropText,
				HarnessOptions.load());
		release.countDown();
		broadcaster.shutdown(Duration.ofSeconds(2));
		System.exit(0);
	}

	/** CPU time of the whole process so far (all threads, JIT and GC included), {@code -1} if unknown. */
	private static long processCpuNanos() {
		if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
				instanceof com.sun.management.OperatingSystemMXBean os) {
			return os.getProcessCpuTime();
		}
		return -1;
	}

	/** A sink that answers at once ({@code block == null}) or waits until released (a frozen API server). */
	private static EventSink sink(CountDownLatch block) {
		InvocationHandler handler = (proxy, method, args) -> {
			switch (method.getName()) {
				case "create", "patch" -> {
					if (block != null) {
						try {
							block.await();
						}
						catch (InterruptedException ex) {
							Thread.currentThread().interrupt();
						}
					}
					return args[0];
				}
				case "toString" -> {
					return "paced-sink";
				}
				case "hashCode" -> {
					return System.identityHashCode(proxy);
				}
				case "equals" -> {
					return proxy == args[0];
				}
				default -> {
					return method.isDefault() ? InvocationHandler.invokeDefault(proxy, method, args) : null;
				}
			}
		};
		return (EventSink) Proxy.newProxyInstance(EventSink.class.getClassLoader(), new Class<?>[] { EventSink.class },
				handler);
	}

	/** A broadcaster with other queue capacities, set by reflection (the builder's type is never named). */
	private static EventBroadcaster withCapacities(HarnessOptions options) throws ReflectiveOperationException {
		Object builder = EventBroadcaster.builder();
		if (options.has("incoming-capacity")) {
			builder.getClass()
				.getMethod("incomingQueueCapacity", int.class)
				.invoke(builder, options.getInt("incoming-capacity", 1000));
		}
		if (options.has("subscriber-capacity")) {
			// the record (queueCapacity, fullQueuePolicy); the policy enum moved between versions, so it is not named
			Class<?> subscriberOptions = Class.forName("io.github.kubeevents.Subscription.Options");
			RecordComponent[] components = subscriberOptions.getRecordComponents();
			Class<?>[] types = new Class<?>[components.length];
			Object[] values = new Object[components.length];
			for (int i = 0; i < components.length; i++) {
				types[i] = components[i].getType();
				values[i] = types[i].isEnum() ? dropPolicy(types[i]) : options.getInt("subscriber-capacity", 1000);
			}
			Object value = subscriberOptions.getConstructor(types).newInstance(values);
			builder.getClass().getMethod("subscriberOptions", subscriberOptions).invoke(builder, value);
		}
		return (EventBroadcaster) builder.getClass().getMethod("build").invoke(builder);
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static Object dropPolicy(Class<?> policy) {
		return Enum.valueOf((Class) policy, "DROP");
	}

	/** Drop counts by reason: {@code stats()}'s drop map (new API), else {@code droppedByReason()}. */
	private static Map<String, Long> drops(EventBroadcaster broadcaster) throws ReflectiveOperationException {
		Object source = call(broadcaster, "stats");
		Object map = null;
		if (source != null && source.getClass().isRecord()) {
			for (RecordComponent component : source.getClass().getRecordComponents()) {
				if (Map.class.isAssignableFrom(component.getType())
						&& component.getName().toLowerCase(Locale.ROOT).contains("drop")) {
					map = component.getAccessor().invoke(source);
				}
			}
		}
		if (map == null) {
			map = call(broadcaster, "droppedByReason");
		}
		Map<String, Long> result = new LinkedHashMap<>();
		if (map instanceof Map<?, ?> counts) {
			counts.forEach((reason, count) -> result.put(String.valueOf(reason).toLowerCase(Locale.ROOT),
					((Number) count).longValue()));
		}
		return result;
	}

	/** {@code queue_full} drops so far: at the incoming queue, and at the subscriber queues ({@code -1}: unknown). */
	private static long[] queueFullDrops(EventBroadcaster broadcaster) throws ReflectiveOperationException {
		long queueFull = drops(broadcaster).getOrDefault("queue_full", 0L);
		long subscriber = subscriberDropped(broadcaster);
		return new long[] { queueFull - Math.max(0, subscriber), subscriber };
	}

	/** Events the subscriber queues dropped ({@code subscriberSnapshots()} or {@code stats()}), -1 if unknown. */
	private static long subscriberDropped(EventBroadcaster broadcaster) throws ReflectiveOperationException {
		List<?> subscribers = subscribers(broadcaster);
		if (subscribers == null) {
			return -1;
		}
		long sum = 0;
		for (Object subscriber : subscribers) {
			Object dropped = call(subscriber, "dropped");
			if (!(dropped instanceof Number number)) {
				return -1;
			}
			sum += number.longValue();
		}
		return sum;
	}

	private static long subscriberDepth(EventBroadcaster broadcaster) throws ReflectiveOperationException {
		List<?> subscribers = subscribers(broadcaster);
		long sum = 0;
		if (subscribers != null) {
			for (Object subscriber : subscribers) {
				if (call(subscriber, "depth") instanceof Number number) {
					sum += number.longValue();
				}
			}
		}
		return sum;
	}

	private static List<?> subscribers(EventBroadcaster broadcaster) throws ReflectiveOperationException {
		if (call(broadcaster, "subscriberSnapshots") instanceof List<?> list) {
			return list;
		}
		Object stats = call(broadcaster, "stats");
		if (stats != null && stats.getClass().isRecord()) {
			for (RecordComponent component : stats.getClass().getRecordComponents()) {
				if (List.class.isAssignableFrom(component.getType())
						&& component.getName().toLowerCase(Locale.ROOT).contains("subscri")) {
					return (List<?>) component.getAccessor().invoke(stats);
				}
			}
		}
		return null;
	}

	/** {@code queueDepth()} (old API) or {@code stats().queue().depth()} (new API); 0 when neither exists. */
	private static long incomingDepth(EventBroadcaster broadcaster) throws ReflectiveOperationException {
		if (call(broadcaster, "queueDepth") instanceof Number number) {
			return number.longValue();
		}
		Object stats = call(broadcaster, "stats");
		Object queue = (stats != null) ? call(stats, "queue") : null;
		return (queue != null && call(queue, "depth") instanceof Number number) ? number.longValue() : 0;
	}

	/** Calls a public no-argument method, or returns {@code null} when there is none. */
	private static Object call(Object target, String name) throws ReflectiveOperationException {
		Method method;
		try {
			method = target.getClass().getMethod(name);
		}
		catch (NoSuchMethodException ex) {
			return null;
		}
		method.setAccessible(true);
		return method.invoke(target);
	}

}
