package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import io.github.kubeevents.EventKeys.AggregateKey;
import io.github.kubeevents.introspect.RecorderSnapshot.CorrelatorSnapshot;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The correlator decides exactly as the string-keyed reference ({@link StringKeyCorrelator}, client-go's keys):
 * random sequences of events drawn from small pools (so keys repeat, messages pile up to aggregation, buckets run
 * dry, and field values overlap so that different fields concatenate to the same key, e.g. component
 * {@code kube} + host {@code letnode1} and {@code kubelet} + {@code node1}), random clock steps across the
 * aggregation window and the token refill, random options and key functions, and "server" responses with other
 * names, counts and resourceVersions fed back through {@code updateState}. Each event goes through the reference,
 * through a correlator with the given key functions (for {@link EventKeys}' constants, the fast path that hashes
 * the fields) and through one whose key functions are opaque lambdas around the same functions (the path that
 * hashes the returned strings). Every result (skip, patch, and the whole event: name, count, message,
 * timestamps, resourceVersion) and the final snapshots must be equal. The caches are larger than the number of
 * keys, because which entry Caffeine evicts is not deterministic.
 */
class CorrelatorKeyEquivalenceTests {

	private static final Instant START = Instant.parse("2026-11-30T12:00:00Z");

	private static final String[] COMPONENTS = { "kubelet", "kube", null };

	private static final String[] HOSTS = { "node1", "letnode1", "" };

	private static final String[] KINDS = { "Pod", "Po", null };

	private static final String[] NAMESPACES = { "default", "d", "", null };

	private static final String[] NAMES = { "web-0", "web", "a", "a-b" };

	private static final String[] UIDS = { "u1", "1", null, "-b" };

	private static final String[] API_VERSIONS = { "v1", "v", null };

	private static final String[] FIELD_PATHS = { null, "spec.containers{a}", "spec.containers{b}" };

	private static final String[] TYPES = { "Normal", "Warning" };

	private static final String[] REASONS = { "BackOff", "Back", "Off", "Started" };

	private static final String[] REPORTING_COMPONENTS = { null, "kubelet", "rc" };

	private static final String[] REPORTING_INSTANCES = { null, "node1" };

	private static final String[] RESOURCE_VERSIONS = { "1234", "5", "007", "abc", null, "", "99999999999999999999",
			"-1" };

	@Test
	void compactKeysDecideExactlyLikeStringKeys() {
		for (int seed = 0; seed < 400; seed++) {
			runSequence(seed, 250);
		}
	}

	private static void runSequence(long seed, int events) {
		Random random = new Random(seed);
		TickingClock clock = TickingClock.fixed(START);
		CorrelatorOptions options = options(random, clock);
		CorrelatorOptions opaque = options.toBuilder()
			.spamKeyFunction(opaque(options.spamKeyFunction()))
			.aggregateKeyFunction(opaque(options.aggregateKeyFunction()))
			.build();
		StringKeyCorrelator reference = new StringKeyCorrelator(options);
		EventCorrelator direct = new EventCorrelator(options);
		EventCorrelator viaStrings = new EventCorrelator(opaque);
		for (int step = 0; step < events; step++) {
			advance(random, clock);
			CoreV1Event event = event(random, clock.peek());
			boolean eventsV1 = random.nextInt(10) == 0;
			CorrelationResult expected = eventsV1 ? reference.aggregateAndFilter(event) : reference.correlate(event);
			CorrelationResult actualDirect = eventsV1 ? direct.aggregateAndFilter(event) : direct.correlate(event);
			CorrelationResult actualViaStrings = eventsV1 ? viaStrings.aggregateAndFilter(event)
					: viaStrings.correlate(event);
			int at = step;
			assertSameDecision(actualDirect, expected, () -> "direct, seed " + seed + ", step " + at + ", " + event);
			assertSameDecision(actualViaStrings, expected,
					() -> "via strings, seed " + seed + ", step " + at + ", " + event);
			if (!expected.skip() && !eventsV1 && random.nextInt(10) < 8) {
				CoreV1Event stored = serverResponse(random, expected.event());
				reference.updateState(stored);
				direct.updateState(stored);
				viaStrings.updateState(stored);
			}
		}
		CorrelatorSnapshot expected = reference.snapshot(Integer.MAX_VALUE);
		assertSameSnapshot(direct.snapshot(Integer.MAX_VALUE, (object) -> true), expected, "direct, seed " + seed);
		assertSameSnapshot(viaStrings.snapshot(Integer.MAX_VALUE, (object) -> true), expected,
				"via strings, seed " + seed);
	}

	private static void assertSameDecision(CorrelationResult actual, CorrelationResult expected,
			Supplier<String> where) {
		if (actual.skip() != expected.skip() || !Objects.equals(actual.patch(), expected.patch())
				|| !Objects.equals(actual.event(), expected.event())) {
			assertThat(actual.skip()).as("skip, %s", where.get()).isEqualTo(expected.skip());
			assertThat(actual.patch()).as("patch, %s", where.get()).isEqualTo(expected.patch());
			assertThat(actual.event()).as("event, %s", where.get()).isEqualTo(expected.event());
		}
	}

	private static CorrelatorOptions options(Random random, TickingClock clock) {
		CorrelatorOptions.Builder builder = CorrelatorOptions.builder()
			.clock(clock)
			.cacheSize(1_000)
			.burst(pick(random, new Integer[] { 1, 2, 5, 25 }))
			.qps(pick(random, new Double[] { 1.0 / 300, 0.1, 1.0 }))
			.aggregateMaxEvents(pick(random, new Integer[] { 2, 3, 10 }))
			.aggregateInterval(Duration.ofSeconds(pick(random, new Integer[] { 5, 60, 600 })))
			.aggregationEnabled(random.nextInt(10) != 0)
			.spamFilterEnabled(random.nextInt(10) != 0)
			.messagePrefix(pick(random, new String[] { CorrelatorOptions.DEFAULT_MESSAGE_PREFIX, "" }));
		switch (random.nextInt(4)) {
			case 0 -> {
				// the builder's defaults
			}
			case 1 -> builder.spamKeyFunction(EventKeys.SPAM_KEY_WITH_REASON);
			case 2 -> builder.spamKeyFunction((event) -> String.valueOf(event.getInvolvedObject().getName())
					+ event.getType())
				.aggregateKeyFunction((event) -> new AggregateKey(String.valueOf(event.getReason()),
						firstChars(event.getMessage(), 2)));
			default -> builder.spamKeyFunction(EventKeys::spamKey).aggregateKeyFunction(EventKeys::aggregateByReason);
		}
		return builder.build();
	}

	private static <T> Function<CoreV1Event, T> opaque(Function<CoreV1Event, T> function) {
		return function::apply;
	}

	private static void advance(Random random, TickingClock clock) {
		int dice = random.nextInt(20);
		if (dice < 6) {
			return;
		}
		Duration step = (dice < 17) ? Duration.ofSeconds(1 + random.nextInt(5))
				: Duration.ofSeconds(random.nextInt(700));
		if (random.nextInt(4) == 0) {
			step = step.plusNanos(random.nextInt(1_000_000_000));
		}
		clock.advance(step);
	}

	private static CoreV1Event event(Random random, Instant now) {
		V1ObjectReference ref = new V1ObjectReference().kind(pick(random, KINDS))
			.namespace(pick(random, NAMESPACES))
			.name(pick(random, NAMES))
			.uid(pick(random, UIDS))
			.apiVersion(pick(random, API_VERSIONS))
			.fieldPath(pick(random, FIELD_PATHS));
		OffsetDateTime time = (random.nextInt(10) == 0)
				? OffsetDateTime.ofInstant(now.plusNanos(random.nextInt(1000)), ZoneOffset.ofHours(2))
				: CoreV1Events.timestamp(now);
		String namespace = (ref.getNamespace() == null || ref.getNamespace().isEmpty()) ? "default"
				: ref.getNamespace();
		return new CoreV1Event()
			.metadata(new V1ObjectMeta().name(EventNames.generate(ref.getName(), now)).namespace(namespace))
			.involvedObject(ref)
			.reason(pick(random, REASONS))
			.message(message(random))
			.type(pick(random, TYPES))
			.action((random.nextInt(4) == 0) ? "Pulling" : null)
			.count(1)
			.firstTimestamp(time)
			.lastTimestamp(time)
			.source(new V1EventSource().component(pick(random, COMPONENTS)).host(pick(random, HOSTS)))
			.reportingComponent(pick(random, REPORTING_COMPONENTS))
			.reportingInstance(pick(random, REPORTING_INSTANCES));
	}

	private static String message(Random random) {
		int dice = random.nextInt(20);
		if (dice == 0) {
			return null;
		}
		if (dice == 1) {
			return "";
		}
		if (dice == 2) {
			// concatenates like reason "Back" + message "Offm1" = "BackOff" + "m1"
			return "Off" + "m" + random.nextInt(3);
		}
		if (dice == 3) {
			return "n\u00e4chster Versuch \u2013 " + random.nextInt(3);
		}
		return "m" + random.nextInt(12);
	}

	private static CoreV1Event serverResponse(Random random, CoreV1Event written) {
		CoreV1Event stored = CoreV1Events.copy(written);
		stored.getMetadata().setResourceVersion(pick(random, RESOURCE_VERSIONS));
		if (random.nextInt(5) == 0) {
			stored.getMetadata().setName("server-" + random.nextInt(3));
		}
		if (random.nextInt(5) == 0) {
			stored.setCount(((stored.getCount() != null) ? stored.getCount() : 0) + random.nextInt(4) - 1);
		}
		if (random.nextInt(10) == 0) {
			stored.setFirstTimestamp(null);
		}
		return stored;
	}

	private static void assertSameSnapshot(CorrelatorSnapshot actual, CorrelatorSnapshot expected, String where) {
		assertThat(List.of(actual.aggregatorSize(), actual.observedSize(), actual.spamBucketsSize())).as(where)
			.isEqualTo(List.of(expected.aggregatorSize(), expected.observedSize(), expected.spamBucketsSize()));
		assertThat(counts(actual.aggregateRecords())).as(where).isEqualTo(counts(expected.aggregateRecords()));
		assertThat(counts(actual.observedEvents())).as(where).isEqualTo(counts(expected.observedEvents()));
		assertThat(counts(actual.spamBuckets())).as(where).isEqualTo(counts(expected.spamBuckets()));
	}

	/** The entries with their multiplicities: the caches' iteration order is not part of the decisions. */
	private static <T> Map<T, Long> counts(List<T> entries) {
		return entries.stream().collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
	}

	private static String firstChars(String value, int n) {
		String text = (value != null) ? value : "";
		return text.substring(0, Math.min(n, text.length()));
	}

	private static <T> T pick(Random random, T[] values) {
		return values[random.nextInt(values.length)];
	}

}
