package io.github.kubeevents;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Level;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.awaitility.Awaitility.await;

/**
 * How the broadcaster's recorder builds events (client-go's {@code generateEvent}) and how it treats bad input:
 * never an exception, always an {@code invalid_input} drop with the problem in a WARN line.
 */
class EventRecorderTests {

	private static final Instant NOW = Instant.parse("2026-11-30T12:00:00.123456789Z");

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final List<RecordedEvent> received = new CopyOnWriteArrayList<>();

	private final EventBroadcaster broadcaster = EventBroadcaster.builder().clock(TickingClock.fixed(NOW)).build();

	private final EventRecorder recorder;

	private final LogCapture drops = LogCapture.of(EventCounters.class, Level.INFO);

	EventRecorderTests() {
		this.broadcaster.subscribe("test", this.received::add);
		this.broadcaster.start();
		this.recorder = this.broadcaster.newRecorder(new EventSource("eventTest", "node-1"));
	}

	@AfterEach
	void shutdown() {
		try {
			assertThat(this.broadcaster.shutdown(WAIT)).isTrue();
		}
		finally {
			this.drops.close();
		}
	}

	private static V1Pod pod() {
		return new V1Pod().metadata(new V1ObjectMeta().name("foo").namespace("baz").uid("bar").resourceVersion("10"));
	}

	private RecordedEvent single() {
		await().atMost(WAIT).until(() -> this.received.size() == 1);
		return this.received.get(0);
	}

	/** The WARN lines of drops, without the final summary of a shut-down broadcaster. */
	private List<String> warnings() {
		return this.drops.warnings().stream().filter((line) -> line.startsWith("Dropped event")).toList();
	}

	@Test
	void buildsTheRecordedEventLikeClientGo() {
		this.recorder.eventf(pod(), EventType.NORMAL, "Started", "Started container %s", "c1");
		RecordedEvent event = single();
		assertThat(event.regarding()).isEqualTo(new InvolvedObject("Pod", "v1", "baz", "foo", "bar", "10", null));
		assertThat(event.related()).isNull();
		assertThat(event.type()).isEqualTo(EventType.NORMAL);
		assertThat(event.reason()).isEqualTo("Started");
		assertThat(event.action()).isNull();
		assertThat(event.message()).isEqualTo("Started container c1");
		assertThat(event.annotations()).isEmpty();
		assertThat(event.source()).isEqualTo(new EventSource("eventTest", "node-1"));
		assertThat(event.timestamp()).isEqualTo(NOW);
		assertThat(event.eventNamespace()).isEqualTo("baz");
		assertThat(EventNames.generate(event)).isEqualTo("foo.18ecd0dd41c04d15");
		assertThat(this.broadcaster.stats().accepted()).isEqualTo(1);
	}

	@Test
	void kindAndApiVersionComeFromTheModelClassWhenUnset() {
		this.recorder.event(new V1Deployment().metadata(new V1ObjectMeta().name("web").namespace("ns")),
				EventType.WARNING, "ScalingFailed", "no room");
		RecordedEvent event = single();
		assertThat(event.regarding().kind()).isEqualTo("Deployment");
		assertThat(event.regarding().apiVersion()).isEqualTo("apps/v1");
		assertThat(event.type()).isEqualTo(EventType.WARNING);
	}

	@Test
	void kindAndApiVersionOfTheObjectWinWhenSet() {
		this.recorder.event(pod().kind("Custom").apiVersion("example.com/v1"), EventType.NORMAL, "R", "m");
		assertThat(single().regarding().kind()).isEqualTo("Custom");
		assertThat(single().regarding().apiVersion()).isEqualTo("example.com/v1");
	}

	@Test
	void clusterScopedObjectsGoToNamespaceDefault() {
		this.recorder.event(new V1Node().metadata(new V1ObjectMeta().name("node-a")), EventType.NORMAL, "Ready", "ok");
		RecordedEvent event = single();
		assertThat(event.eventNamespace()).isEqualTo("default");
		assertThat(event.regarding().namespace()).isNull();
		assertThat(event.regarding().kind()).isEqualTo("Node");
	}

	@Test
	void referenceIsUsedAsIs() {
		V1ObjectReference ref = new V1ObjectReference().kind("Pod")
			.apiVersion("v1")
			.name("foo")
			.namespace("baz")
			.fieldPath("spec.containers{c}");
		this.recorder.event(InvolvedObject.of(ref), EventType.WARNING, "BackOff", "back-off");
		assertThat(single().regarding().toV1ObjectReference()).isEqualTo(ref);
	}

	@Test
	void annotationsAreSetOnTheEvent() {
		this.recorder.annotatedEventf(pod(), Map.of("k", "v"), EventType.NORMAL, "R", "%d items", 3);
		RecordedEvent event = single();
		assertThat(event.annotations()).containsExactly(Map.entry("k", "v"));
		assertThat(event.message()).isEqualTo("3 items");
	}

	@Test
	void annotationsAreCopiedWhenRecorded() {
		Map<String, String> annotations = new HashMap<>(Map.of("k", "v"));
		this.recorder.annotatedEventf(pod(), annotations, EventType.NORMAL, "R", "m");
		annotations.put("later", "x");
		assertThat(single().annotations()).containsExactly(Map.entry("k", "v"));
	}

	@Test
	void verbatimMessagesAreNotFormatted() {
		this.recorder.event(pod(), EventType.NORMAL, "R", "100% done %s");
		assertThat(single().message()).isEqualTo("100% done %s");
	}

	@Test
	void relatedAndActionReachTheEvent() {
		InvolvedObject node = InvolvedObject.of("Node", "v1", null, "node-1");
		this.recorder.about(pod()).related(node).action("Scheduling").warning("FailedScheduling", "%d of %d nodes", 0,
				3);
		RecordedEvent event = single();
		assertThat(event.related()).isEqualTo(node);
		assertThat(event.action()).isEqualTo("Scheduling");
		assertThat(event.message()).isEqualTo("0 of 3 nodes");
	}

	@Test
	void emptyActionIsNone() {
		this.recorder.about(pod()).action("").normal("R", "m");
		assertThat(single().action()).isNull();
	}

	@Test
	void aLiteralPercentWithoutArgumentsIsWrittenVerbatim() {
		this.recorder.eventf(pod(), EventType.WARNING, "Full", "Disk 100% full");
		assertThat(single().message()).isEqualTo("Disk 100% full");
		assertThat(this.broadcaster.stats().formatFailures()).isZero();
		assertThat(warnings()).isEmpty();
	}

	@Test
	void aPatternThatFailsToFormatIsRecordedCountedAndLoggedOncePerPatternWithTheObject() {
		{
			this.recorder.eventf(pod(), EventType.WARNING, "Full", "Disk %d full", "disk-1");
			this.recorder.eventf(pod(), EventType.WARNING, "Full", "Disk %d full", "disk-2");
			this.recorder.about(pod()).warning("Short", "%s and %s", "one");
			await().atMost(WAIT).until(() -> this.received.size() == 3);
			assertThat(this.received).extracting(RecordedEvent::message).containsExactly(
					"Disk %d full %!(BADFORMAT IllegalFormatConversionException: d != java.lang.String) %!(ARGS disk-1)",
					"Disk %d full %!(BADFORMAT IllegalFormatConversionException: d != java.lang.String) %!(ARGS disk-2)",
					"%s and %s %!(BADFORMAT MissingFormatArgumentException: Format specifier '%s') %!(ARGS one)");
			assertThat(this.broadcaster.stats().formatFailures()).isEqualTo(3);
			assertThat(this.broadcaster.stats().dropped(DropReason.INVALID_INPUT.tag())).isZero();
			assertThat(this.drops.warnings()).filteredOn((line) -> line.startsWith("Could not format")).satisfiesExactly(
					(line) -> assertThat(line).contains("object=\"baz/foo\" kind=\"Pod\"", "reason=\"Full\"",
							"pattern 'Disk %d full'", "IllegalFormatConversionException"),
					(line) -> assertThat(line).contains("reason=\"Short\"", "pattern '%s and %s'"));
		}
	}

	/** docs/recording.md's lines: bad input, and a pattern that fails to format (its message and its WARN). */
	@Test
	void theDocsExamplesOfBadInputAndAFailedFormat() {
		V1Pod web0 = new V1Pod().metadata(new V1ObjectMeta().name("web-0").namespace("ns").uid("u-0"));
		this.recorder.event(web0, null, "R", "m");
		this.recorder.eventf(web0, EventType.WARNING, "Full", "Disk %d full", "disk-1");
		await().atMost(WAIT).until(() -> this.received.size() == 1);
		DocOutputs.check("docs/recording.md", "invalid-input-line", warnings().get(0));
		DocOutputs.check("docs/recording.md", "format-failure-message", this.received.get(0).message());
		DocOutputs.check("docs/recording.md", "format-failure-line", this.drops.warnings()
			.stream()
			.filter((line) -> line.startsWith("Could not format"))
			.findFirst()
			.orElseThrow());
	}

	@Test
	void badInputIsDroppedAndCountedNeverThrown() {
		V1ObjectReference nameless = new V1ObjectReference().kind("Pod");
		assertThatNoException().isThrownBy(() -> {
			this.recorder.event((V1Pod) null, EventType.NORMAL, "R", "null object");
			this.recorder.event((InvolvedObject) null, EventType.NORMAL, "R", "null reference");
			this.recorder.event(new V1Pod().metadata(new V1ObjectMeta().namespace("x")), EventType.NORMAL, "R",
					"no name");
			this.recorder.event(new V1Pod(), EventType.NORMAL, "R", "no metadata");
			this.recorder.event(pod(), null, "R", "null type");
			this.recorder.event(pod(), EventType.NORMAL, null, "null reason");
			this.recorder.event(pod(), EventType.NORMAL, "", "empty reason");
			this.recorder.event("a string", EventType.NORMAL, "R", "unknown type");
			this.recorder.eventf(nameless, EventType.NORMAL, "R", "reference without name");
			this.recorder.about("a string", (String s) -> null).normal("R", "m");
			this.recorder.record(null);
		});
		this.recorder.event(pod(), EventType.NORMAL, "R", "ok");
		await().atMost(WAIT).until(() -> this.received.size() == 1);
		assertThat(this.received.get(0).message()).isEqualTo("ok");
		assertThat(this.broadcaster.stats().dropped(DropReason.INVALID_INPUT.tag())).isEqualTo(11);
		assertThat(this.broadcaster.stats().accepted()).isEqualTo(1);
		assertThat(warnings()).hasSize(11).allSatisfy((line) -> assertThat(line).startsWith("Dropped event (invalid_input)"));
		assertThat(warnings()).satisfiesExactly(
				(line) -> assertThat(line).contains("object=null", "involved object is null"),
				(line) -> assertThat(line).contains("object=null", "involved object is null"),
				(line) -> assertThat(line).contains("object=io.kubernetes.client.openapi.models.V1Pod",
						"has no metadata.name: V1Pod"),
				(line) -> assertThat(line).contains("has no metadata.name: V1Pod"),
				(line) -> assertThat(line).contains("object=\"baz/foo\" kind=\"Pod\" type=\"null\"", "event type is null"),
				(line) -> assertThat(line).contains("object=\"baz/foo\"", "reason is null"),
				(line) -> assertThat(line).contains("reason is empty"),
				(line) -> assertThat(line).contains("object=java.lang.String",
						"cannot reference an object of type java.lang.String"),
				(line) -> assertThat(line).contains("involved object has no name (kind Pod"),
				(line) -> assertThat(line).contains("the InvolvedObject.Adapter returned null for java.lang.String"),
				(line) -> assertThat(line).contains("Could not record event: the spec is null"));
	}

	@Test
	void throwingAdapterIsAnInvalidInputWithTheProblemInTheWarning() {
		InvolvedObject.Adapter<String> broken = (s) -> {
			throw new IllegalStateException("cache not synced");
		};
		assertThatNoException().isThrownBy(() -> this.recorder.about("widget-1", broken).warning("R", "m"));
		assertThat(this.broadcaster.stats().dropped(DropReason.INVALID_INPUT.tag())).isEqualTo(1);
		assertThat(warnings()).singleElement()
			.satisfies((line) -> assertThat(line).contains("reason=\"R\"", "type=\"Warning\"",
					"the InvolvedObject.Adapter failed on java.lang.String",
					"java.lang.IllegalStateException: cache not synced"));
	}

	@Test
	void adapterThrowingACheckedExceptionIsAnInvalidInputToo() {
		// Kotlin adapters (and @SneakyThrows) can throw checked exceptions the signature does not declare
		InvolvedObject.Adapter<String> sneaky = (s) -> {
			throw EventRecorderTests.<RuntimeException>sneakyThrow(new IOException("metadata not readable"));
		};
		assertThatNoException().isThrownBy(() -> this.recorder.about("widget-1", sneaky).warning("R", "m"));
		assertThat(this.broadcaster.stats().dropped(DropReason.INVALID_INPUT.tag())).isEqualTo(1);
		assertThat(warnings()).singleElement()
			.satisfies((line) -> assertThat(line).contains("java.io.IOException: metadata not readable"));
	}

	@SuppressWarnings("unchecked")
	private static <E extends Throwable> E sneakyThrow(Throwable ex) throws E {
		throw (E) ex;
	}

	/** Go's fmt recovers a panicking String method; an Error from toString is the caller's input here too. */
	@Test
	void formatArgumentWhoseToStringThrowsAnErrorStillRecordsTheEventAndNeverReachesTheCaller() {
		Object asserting = new Object() {
			@Override
			public String toString() {
				throw new AssertionError("invariant broken");
			}
		};
		assertThatNoException()
			.isThrownBy(() -> this.recorder.eventf(pod(), EventType.NORMAL, "R", "value: %s", asserting));
		assertThat(single().message())
			.startsWith("value: %s %!(BADFORMAT AssertionError: invariant broken) %!(ARGS ")
			.endsWith("(toString failed: AssertionError))");
		assertThat(this.broadcaster.stats().formatFailures()).isEqualTo(1);
		assertThat(this.broadcaster.stats().dropped(DropReason.INVALID_INPUT.tag())).isZero();
	}

	@Test
	void anErrorFromAnAdapterOrTheObjectIsACountedInvalidInputButOutOfMemoryPassesOn() {
		InvolvedObject.Adapter<String> asserting = (s) -> {
			throw new AssertionError("not a widget");
		};
		assertThatNoException().isThrownBy(() -> this.recorder.about("widget-1", asserting).warning("R", "m"));
		assertThat(this.broadcaster.stats().dropped(DropReason.INVALID_INPUT.tag())).isEqualTo(1);
		assertThat(warnings()).singleElement()
			.satisfies((line) -> assertThat(line).contains("java.lang.AssertionError: not a widget"));
		// a cyclic toString of an entity: its stack has unwound by the time it is caught
		InvolvedObject.Adapter<String> cyclic = (s) -> {
			throw new StackOverflowError();
		};
		assertThatNoException().isThrownBy(() -> this.recorder.about("widget-2", cyclic).warning("R", "m"));
		assertThat(this.broadcaster.stats().dropped(DropReason.INVALID_INPUT.tag())).isEqualTo(2);
		InvolvedObject.Adapter<String> exhausted = (s) -> {
			throw new OutOfMemoryError("test");
		};
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> this.recorder.about("widget-3", exhausted).warning("R", "m"))
			.isInstanceOf(OutOfMemoryError.class);
	}

	@Test
	void formatArgumentWhoseToStringThrowsStillRecordsTheEvent() {
		Object hostile = new Object() {
			@Override
			public String toString() {
				throw EventRecorderTests.<RuntimeException>sneakyThrow(new IOException("not printable"));
			}
		};
		assertThatNoException()
			.isThrownBy(() -> this.recorder.eventf(pod(), EventType.NORMAL, "R", "value: %s", hostile));
		assertThat(single().message()).startsWith("value: %s %!(BADFORMAT IOException: not printable) %!(ARGS ")
			.endsWith("(toString failed: IOException))");
		assertThat(this.broadcaster.stats().dropped(DropReason.INVALID_INPUT.tag())).isZero();
		assertThat(this.broadcaster.stats().formatFailures()).isEqualTo(1);
	}

	@Test
	void oversizedMessagesAreDroppedByUtf8Bytes() {
		EventBroadcaster small = EventBroadcaster.builder().maxMessageBytes(10).build();
		EventRecorder recorder = small.newRecorder(EventSource.of("c"));
		List<RecordedEvent> got = new CopyOnWriteArrayList<>();
		small.subscribe("got", got::add);
		small.start();
		recorder.event(pod(), EventType.NORMAL, "R", "ééééé");
		recorder.event(pod(), EventType.NORMAL, "R", "éééééé");
		recorder.eventf(pod(), EventType.NORMAL, "R", "%s", "0123456789x");
		assertThat(small.shutdown(WAIT)).isTrue();
		assertThat(got).extracting(RecordedEvent::message).containsExactly("ééééé");
		assertThat(small.stats().dropped(DropReason.INVALID_INPUT.tag())).isEqualTo(2);
		assertThat(warnings()).anySatisfy((line) -> assertThat(line)
			.contains("message is 12 UTF-8 bytes, more than the limit of 10"));
	}

	@Test
	void recorderUsesTheBroadcastersClock() {
		TickingClock clock = new TickingClock(NOW, Duration.ofSeconds(1));
		EventBroadcaster ticking = EventBroadcaster.builder().clock(clock).build();
		List<RecordedEvent> got = new CopyOnWriteArrayList<>();
		ticking.subscribe("got", got::add);
		EventRecorder recorder = ticking.newRecorder(EventSource.of("c"));
		recorder.event(pod(), EventType.NORMAL, "R", "first");
		recorder.event(pod(), EventType.NORMAL, "R", "second");
		assertThat(ticking.shutdown(WAIT)).isTrue();
		assertThat(got).extracting(RecordedEvent::timestamp)
			.containsExactly(NOW.plusSeconds(1), NOW.plusSeconds(2));
	}

	@Test
	void recordersShareTheBroadcastersQueueAndSubscribers() {
		EventRecorder other = this.broadcaster.newRecorder(EventSource.of("other"));
		this.recorder.event(pod(), EventType.NORMAL, "R", "one");
		other.event(pod(), EventType.NORMAL, "R", "two");
		await().atMost(WAIT).until(() -> this.received.size() == 2);
		assertThat(this.received).extracting((e) -> e.source().component()).containsExactly("eventTest", "other");
	}

	@Test
	void manyThreadsRecordingConcurrentlyLoseNothingWithinCapacity() throws Exception {
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < 10; t++) {
			int n = t;
			Thread thread = new Thread(() -> {
				for (int i = 0; i < 10; i++) {
					this.recorder.event(pod(), EventType.NORMAL, "R" + n, "message " + i);
				}
			});
			thread.start();
			threads.add(thread);
		}
		for (Thread thread : threads) {
			thread.join();
		}
		await().atMost(WAIT).until(() -> this.received.size() == 100);
		assertThat(this.broadcaster.stats().accepted()).isEqualTo(100);
	}

}
