package io.github.kubeevents;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import io.kubernetes.client.openapi.models.CoreV1Event;
import org.openjdk.jol.info.GraphLayout;

/**
 * The heap a core/v1 correlator retains with full caches: {@code --objects} distinct Pods (default 20,000) each
 * get one Warning event, correlated as the core/v1 sink does (the event built by {@link CoreV1Events#of}, then
 * {@link EventCorrelator#updateState} with the "server's" copy, which carries a new resourceVersion). With the
 * default options (4,096 entries per cache) the aggregator, observer and spam filter are then all full.
 *
 * <p>Two measurements, each the median of {@code --rounds} fills (which entries Caffeine keeps, and so how many
 * objects' names stay reachable, varies from fill to fill): the object graph reachable from the correlator (JOL's
 * {@link GraphLayout}, exact for this JVM's layout; shared constants such as {@code "Pod"} counted once), and, as
 * a cross-check, the used heap after {@code System.gc()} with and without the filled correlator. Each event is
 * built, correlated and dropped, so only what the caches keep is counted (the object names and uids are new
 * strings per Pod, as they would be in objects read from the API server). Prints one line per measurement, with
 * the one-minute load. In the core's package, like {@code CorrelatorBenchmark}, because the correlator is
 * package-private.
 *
 * <pre>
 * java -Djdk.attach.allowAttachSelf -Djol.magicFieldOffset=true \
 *     -cp benchmarks/target/benchmarks.jar io.github.kubeevents.CorrelatorHeapProbe \
 *     [--objects 20000] [--rounds 5] [--footprint true]
 * </pre>
 * (JOL needs the two properties on JDK 17: Caffeine's caches hold lambdas, hidden classes whose field offsets
 * JOL otherwise cannot read.)
 */
public final class CorrelatorHeapProbe {

	private static final EventSource SOURCE = new EventSource("probe-controller", "node-1");

	private CorrelatorHeapProbe() {
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> options = new HashMap<>();
		for (int i = 0; i + 1 < args.length; i += 2) {
			options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
		}
		int objects = Integer.parseInt(options.getOrDefault("objects", "20000"));
		int rounds = Integer.parseInt(options.getOrDefault("rounds", "5"));

		EventCorrelator empty = new EventCorrelator(CorrelatorOptions.defaults());
		long emptyBytes = GraphLayout.parseInstance(empty).totalSize();
		long[] jolBytes = new long[rounds];
		EventCorrelator full = null;
		for (int round = 0; round < rounds; round++) {
			full = filled(objects);
			jolBytes[round] = GraphLayout.parseInstance(full).totalSize();
		}
		long fullBytes = median(jolBytes);
		var snapshot = full.snapshot(0, (object) -> true);
		long entries = snapshot.aggregatorSize() + snapshot.observedSize() + snapshot.spamBucketsSize();
		System.out.printf(Locale.ROOT,
				"jol: objects=%d entries=%d/%d/%d (aggregator/observer/spam) retained median=%d bytes (%.2f MB, "
						+ "%.2f MiB) rounds=%s, empty correlator=%d bytes, per entry=%.1f bytes, load=%s%n",
				objects, snapshot.aggregatorSize(), snapshot.observedSize(), snapshot.spamBucketsSize(), fullBytes,
				fullBytes / 1e6, fullBytes / 1048576.0, Arrays.toString(jolBytes), emptyBytes,
				(fullBytes - emptyBytes) / (double) entries, load());
		for (String part : new String[] { "aggregator", "observer", "spamFilter" }) {
			Object component = field(full, part);
			if (component != null) {
				System.out.printf(Locale.ROOT, "jol: %s alone=%d bytes (last round)%n", part,
						GraphLayout.parseInstance(component).totalSize());
			}
		}
		if (Boolean.parseBoolean(options.getOrDefault("footprint", "false"))) {
			System.out.println(GraphLayout.parseInstance(full).toFootprint());
		}
		full = null;

		long[] gcBytes = new long[rounds];
		for (int round = 0; round < rounds; round++) {
			long before = usedAfterGc();
			EventCorrelator correlator = filled(objects);
			long after = usedAfterGc();
			gcBytes[round] = after - before;
			// keeps the correlator strongly reachable until the second measurement
			if (correlator.snapshot(0, (object) -> true).observedSize() == 0) {
				throw new IllegalStateException("nothing observed");
			}
		}
		long median = median(gcBytes);
		System.out.printf(Locale.ROOT, "gc: objects=%d retained median=%d bytes (%.2f MB) rounds=%s load=%s%n", objects,
				median, median / 1e6, Arrays.toString(gcBytes), load());
	}

	static EventCorrelator filled(int objects) {
		EventCorrelator correlator = new EventCorrelator(CorrelatorOptions.defaults());
		for (int i = 0; i < objects; i++) {
			InvolvedObject pod = new InvolvedObject("Pod", "v1", "default", "pod-" + i, UUID.randomUUID().toString(),
					String.valueOf(5_000_000 + i), null);
			RecordedEvent recorded = new RecordedEvent(pod, null, EventType.WARNING, "BackOff", null,
					"Back-off restarting failed container", Map.of(), SOURCE, Instant.now());
			CorrelationResult result = correlator.correlate(CoreV1Events.of(recorded));
			if (!result.skip()) {
				CoreV1Event stored = result.event();
				stored.getMetadata().setResourceVersion(String.valueOf(9_000_000 + i));
				correlator.updateState(stored);
			}
		}
		return correlator;
	}

	/** The one-minute load average, or {@code ?} where {@code /proc/loadavg} does not exist. */
	private static String load() {
		try {
			return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
		}
		catch (IOException ex) {
			return "?";
		}
	}

	private static long median(long[] values) {
		long[] sorted = values.clone();
		Arrays.sort(sorted);
		return sorted[sorted.length / 2];
	}

	private static long usedAfterGc() {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		long used = Long.MAX_VALUE;
		for (int i = 0; i < 5; i++) {
			System.gc();
			used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
		}
		return used;
	}

	private static Object field(Object target, String name) {
		try {
			Field field = target.getClass().getDeclaredField(name);
			field.setAccessible(true);
			return field.get(target);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return null;
		}
	}

}
