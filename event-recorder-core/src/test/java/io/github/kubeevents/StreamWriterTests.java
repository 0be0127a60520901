package io.github.kubeevents;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.Map;

import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.RetryPolicy;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The deterministic-names write path on the calling thread, request by request, against an in-memory API server:
 * create first, AlreadyExists → get → conditional patch, steady state without a read, a conflict re-read and its
 * bound, a deleted Event created again, a refused read, the count carried from the server.
 */
class StreamWriterTests {

	private static final OffsetDateTime NOW = OffsetDateTime.of(2026, 12, 2, 15, 0, 0, 0, ZoneOffset.UTC);

	private static final RecordedEvent RECORDED = TestEvents.recorded("BackOff", "Back-off",
			TestEvents.object("Pod", "web-0", "shop"));

	private final StoredEvents server = new StoredEvents();

	private final EventSink sink = this.server.coreV1Sink();

	private final List<Duration> pauses = new ArrayList<>();

	/** What one write's requests do here: the test's write value, so each test scripts its own. */
	private interface Ops {

		CoreV1Event create(int count) throws EventSinkException;

		CoreV1Event get() throws EventSinkException;

		CoreV1Event patch(int count, String resourceVersion) throws EventSinkException;

	}

	/** One write of the tests: its counts, and what its requests do. */
	private record TestWrite(Ops ops, int localCount, int occurrencesIfUnknown) implements SinkWrite {

		@Override
		public RecordedEvent recorded() {
			return RECORDED;
		}

		@Override
		public int occurrences() {
			return this.occurrencesIfUnknown;
		}

		@Override
		public boolean stream() {
			return true;
		}

		@Override
		public boolean repeat() {
			return false;
		}

	}

	/** The bodies: the count a request sends is what its write's {@link Ops} receives. */
	private static final EventWriter.Bodies<TestWrite, CoreV1Event, EventSink.CountPatch> BODIES = new EventWriter.Bodies<>() {

		@Override
		public CoreV1Event event(TestWrite write) {
			return StreamWriterTests.event();
		}

		@Override
		public CoreV1Event own(TestWrite write) {
			throw new AssertionError("not on the stream path");
		}

		@Override
		public CoreV1Event created(TestWrite write, int count) {
			return StreamWriterTests.event().count(count);
		}

		@Override
		public EventSink.CountPatch patch(TestWrite write, int count, String resourceVersion) {
			return new EventSink.CountPatch(count, NOW, "Back-off", resourceVersion);
		}

		@Override
		public int count(CoreV1Event answer) {
			return answer.getCount();
		}

	};

	/** The sink the requests reach: the {@link Ops} of the write being written. */
	private final EventSink routing = new EventSink() {

		@Override
		public CoreV1Event create(CoreV1Event event) throws EventSinkException {
			return StreamWriterTests.this.current.create(event.getCount());
		}

		@Override
		public CoreV1Event patch(CoreV1Event event, CountPatch patch) throws EventSinkException {
			return StreamWriterTests.this.current.patch(patch.count(), patch.resourceVersion());
		}

		@Override
		public CoreV1Event get(String namespace, String name) throws EventSinkException {
			return StreamWriterTests.this.current.get();
		}

	};

	/** The requests of the write being written. */
	private Ops current;

	private final SinkRun<CoreV1Event, EventSink.CountPatch> run = TestSinks.run(
			TestSinks.settings(RetryPolicy.defaults(), this::pause, (api, verb, result, duration) -> {
			}, TickingClock.fixed(NOW.toInstant())),
			this.routing, new SinkWritersTests.NoTarget());

	private final StreamWriter<TestWrite, CoreV1Event, EventSink.CountPatch> writer = writer(100, 1);

	private StreamWriter<TestWrite, CoreV1Event, EventSink.CountPatch> writer(int capacity, int minimumPatchCount) {
		return new StreamWriter<>(capacity, minimumPatchCount, () -> 0.5, BODIES, this.run.requests());
	}

	/** Writes through {@code writer}, with {@code ops} doing the requests. */
	private StreamWriter.Result<CoreV1Event> write(StreamWriter<TestWrite, CoreV1Event, EventSink.CountPatch> writer,
			int localCount, int occurrencesIfUnknown, Ops ops) throws EventSinkException {
		this.current = ops;
		return writer.write("shop/web-0.stream", new TestWrite(ops, localCount, occurrencesIfUnknown),
				new WriteContext(null));
	}

	private StreamWriter.Result<CoreV1Event> writeCarried(StreamWriter.Carried<TestWrite> carried)
			throws EventSinkException {
		this.current = carried.write().ops();
		return this.writer.writeCarried(carried, new WriteContext(null));
	}

	private void pause(Duration delay) {
		this.pauses.add(delay);
	}

	private static CoreV1Event event() {
		CoreV1Event event = TestEvents.event("BackOff", "Back-off", TestEvents.ref("Pod", "web-0", "shop"));
		event.getMetadata().name("web-0.stream").namespace("shop");
		return event;
	}

	private Ops operations() {
		CoreV1Event event = event();
		return new Ops() {

			@Override
			public CoreV1Event create(int count) throws EventSinkException {
				CoreV1Event created = CoreV1Events.copy(event);
				created.setCount(count);
				return StreamWriterTests.this.sink.create(created);
			}

			@Override
			public CoreV1Event get() throws EventSinkException {
				return StreamWriterTests.this.sink.get("shop", "web-0.stream");
			}

			@Override
			public CoreV1Event patch(int count, String resourceVersion) throws EventSinkException {
				return StreamWriterTests.this.sink.patch(event,
						new EventSink.CountPatch(count, NOW, "Back-off", resourceVersion));
			}

		};
	}

	private int write(int localCount, int occurrencesIfUnknown) throws EventSinkException {
		StreamWriter.Result<CoreV1Event> result = write(this.writer, localCount, occurrencesIfUnknown, operations());
		assertThat(result.readRefused()).isFalse();
		return result.event().getCount();
	}

	private void existingEventWithCount(int count) throws EventSinkException {
		CoreV1Event existing = event();
		existing.setCount(count);
		this.sink.create(existing);
		this.server.clearRequests();
	}

	private int stored() {
		return this.server.coreV1("shop", "web-0.stream").getCount();
	}

	/** Operations whose create and get a test scripts to fail; nothing is ever patched. */
	private abstract static class FailingOperations implements Ops {

		@Override
		public CoreV1Event patch(int count, String resourceVersion) {
			throw new AssertionError("nothing to patch");
		}

	}

	@Test
	void aNewStreamIsOneCreateAndThenOnePatchPerWriteWithoutARead() throws EventSinkException {
		assertThat(write(1, 1)).isEqualTo(1);
		assertThat(write(2, 1)).isEqualTo(2);
		assertThat(write(3, 1)).isEqualTo(3);
		assertThat(this.server.requests()).containsExactly("create shop/web-0.stream", "patch shop/web-0.stream",
				"patch shop/web-0.stream");
		assertThat(stored()).isEqualTo(3);
	}

	@Test
	void anEventFromBeforeARestartIsReadOnceAndContinued() throws EventSinkException {
		existingEventWithCount(5);
		assertThat(write(1, 1)).isEqualTo(6);
		assertThat(write(2, 1)).isEqualTo(7);
		assertThat(write(3, 1)).isEqualTo(8);
		assertThat(this.server.requests()).containsExactly("create shop/web-0.stream", "get shop/web-0.stream",
				"patch shop/web-0.stream", "patch shop/web-0.stream", "patch shop/web-0.stream");
		assertThat(this.writer.serverCount("shop/web-0.stream")).isEqualTo(8);
	}

	@Test
	void theNewOccurrencesOfAWriteAreItsLocalCountMinusTheLastWrittenOne() throws EventSinkException {
		existingEventWithCount(5);
		assertThat(write(1, 1)).isEqualTo(6);
		// local counts 2 to 4 were spam-filtered: the write with local count 5 carries four occurrences
		assertThat(write(5, 1)).isEqualTo(10);
		// the correlator forgot the stream and starts at 1 again: one occurrence
		assertThat(write(1, 1)).isEqualTo(11);
	}

	@Test
	void aConflictReadsAgainAndAddsToWhatTheOtherWriterWrote() throws EventSinkException {
		write(1, 1);
		this.server.clearRequests();
		this.server.bump("shop/web-0.stream", 4);
		assertThat(write(2, 1)).isEqualTo(6);
		assertThat(this.server.requests()).containsExactly("patch shop/web-0.stream", "get shop/web-0.stream",
				"patch shop/web-0.stream");
		assertThat(this.pauses).containsExactly(Duration.ofMillis(10));
	}

	@Test
	void anAlreadyExistsOrAGoneEventIsReadAgainWithoutWaiting() throws EventSinkException {
		existingEventWithCount(5);
		assertThat(write(1, 1)).isEqualTo(6);
		this.server.delete("shop/web-0.stream");
		assertThat(write(2, 1)).isEqualTo(7);
		assertThat(this.pauses).isEmpty();
	}

	@Test
	void theWaitBeforeAReReadDoublesFromTenMillisecondsUpToTwoHundredWithJitter() {
		assertThat(StreamWriter.rereadDelay(1, 0.5)).isEqualTo(Duration.ofMillis(10));
		assertThat(StreamWriter.rereadDelay(2, 0.5)).isEqualTo(Duration.ofMillis(20));
		assertThat(StreamWriter.rereadDelay(5, 0.5)).isEqualTo(Duration.ofMillis(160));
		assertThat(StreamWriter.rereadDelay(6, 0.5)).isEqualTo(Duration.ofMillis(200));
		assertThat(StreamWriter.rereadDelay(64, 0.5)).isEqualTo(Duration.ofMillis(200));
		assertThat(StreamWriter.rereadDelay(1, 0.0)).isEqualTo(Duration.ofMillis(5));
		assertThat(StreamWriter.rereadDelay(3, 0.999)).isEqualTo(Duration.ofNanos(59_960_000));
	}

	@Test
	void aStreamThatKeepsConflictingCarriesItsOccurrencesIntoItsNextWriteAfterTenReReads() throws EventSinkException {
		write(1, 1);
		this.server.clearRequests();
		this.server.beforeRequest((request) -> {
			if (request.startsWith("patch")) {
				this.server.bump("shop/web-0.stream", 1);
			}
		});
		StreamWriter.Result<CoreV1Event> lost = write(this.writer, 2, 1, operations());
		assertThat(lost.carried()).isTrue();
		assertThat(lost.event()).isNull();
		List<String> requests = this.server.requests();
		assertThat(requests).filteredOn((request) -> request.startsWith("patch")).hasSize(11);
		assertThat(requests).filteredOn((request) -> request.startsWith("get")).hasSize(10);
		assertThat(stored()).isEqualTo(1 + 11);
		assertThat(this.pauses).extracting(Duration::toMillis)
			.containsExactly(10L, 20L, 40L, 80L, 160L, 200L, 200L, 200L, 200L, 200L);
		assertThat(this.writer.carried()).singleElement()
			.satisfies((carried) -> assertThat(carried.occurrences()).isEqualTo(1));
		// the stream's next write reads again and carries it: 12 + its own 1 + the carried 1
		this.server.beforeRequest((request) -> {
		});
		this.server.clearRequests();
		assertThat(write(3, 1)).isEqualTo(14);
		assertThat(this.server.requests()).containsExactly("create shop/web-0.stream", "get shop/web-0.stream",
				"patch shop/web-0.stream");
		assertThat(this.writer.carried()).isEmpty();
	}

	@Test
	void whatAStreamCarriesIsWrittenAtTheStopWithUpToAHundredReReads() throws EventSinkException {
		write(1, 1);
		AtomicInteger bumps = new AtomicInteger(30);
		this.server.beforeRequest((request) -> {
			if (request.startsWith("patch") && bumps.getAndDecrement() > 0) {
				this.server.bump("shop/web-0.stream", 1);
			}
		});
		assertThat(write(this.writer, 2, 1, operations()).carried()).isTrue();
		StreamWriter.Carried<TestWrite> carried = this.writer.carried().get(0);
		StreamWriter.Result<CoreV1Event> written = writeCarried(carried);
		assertThat(written.carried()).isFalse();
		assertThat(stored()).as("the first, 30 by others, the carried one").isEqualTo(1 + 30 + 1);
		assertThat(this.writer.carried()).isEmpty();
		this.server.clearRequests();
		assertThat(writeCarried(carried).event()).as("written already: nothing to do").isNull();
		assertThat(this.server.requests()).isEmpty();
	}

	@Test
	void pastItsCapacityOfCarryingStreamsALostRaceFailsWithThe409() throws EventSinkException {
		StreamWriter<TestWrite, CoreV1Event, EventSink.CountPatch> one = writer(1, 1);
		write(one, 1, 1, operations());
		this.server.beforeRequest((request) -> {
			if (request.startsWith("patch")) {
				this.server.bump("shop/web-0.stream", 1);
			}
		});
		assertThat(write(one, 2, 1, operations()).carried()).isTrue();
		// the same stream carries more; a second stream would exceed the capacity of 1
		assertThat(write(one, 3, 1, operations()).carried()).isTrue();
		assertThat(one.carried()).singleElement().satisfies((carried) -> assertThat(carried.occurrences()).isEqualTo(2));
		Ops other = new FailingOperations() {

			@Override
			public CoreV1Event create(int count) throws EventSinkException {
				throw EventSinkException.status(409, "Conflict", "the object has been modified");
			}

			@Override
			public CoreV1Event get() throws EventSinkException {
				throw EventSinkException.status(404, "NotFound", "gone");
			}

		};
		assertThatExceptionOfType(EventSinkException.class)
			.isThrownBy(() -> one.write("shop/db-0.stream", new TestWrite(other, 1, 1), context(other)))
			.satisfies((ex) -> assertThat(ex.getMessage()).contains("still after 10 re-reads"));
	}

	@Test
	void aDeletedEventIsCreatedAgainWithTheCountItShouldHave() throws EventSinkException {
		write(1, 1);
		write(2, 1);
		this.server.clearRequests();
		this.server.delete("shop/web-0.stream");
		assertThat(write(3, 1)).isEqualTo(3);
		assertThat(this.server.requests()).containsExactly("patch shop/web-0.stream", "get shop/web-0.stream",
				"create shop/web-0.stream");
	}

	@Test
	void aRefusedReadWritesNothingAndSaysSo() throws EventSinkException {
		existingEventWithCount(5);
		this.server.forbidGet();
		StreamWriter.Result<CoreV1Event> result = write(this.writer, 1, 1, operations());
		assertThat(result.readRefused()).isTrue();
		assertThat(result.event()).isNull();
		assertThat(stored()).isEqualTo(5);
	}

	/**
	 * A CREATE answers 404 only when the namespace does not exist: one request, the 404 thrown for the recorder to
	 * count (it read and created again 10 times before: 21 requests per event, then a misleading "kept changing").
	 */
	@Test
	void aMissingNamespaceIsOneCreateAndItsNotFound() {
		List<String> requests = new ArrayList<>();
		Ops missing = new FailingOperations() {

			@Override
			public CoreV1Event create(int count) throws EventSinkException {
				requests.add("create");
				throw EventSinkException.status(404, "NotFound", "namespaces \"gone\" not found");
			}

			@Override
			public CoreV1Event get() throws EventSinkException {
				requests.add("get");
				throw EventSinkException.status(404, "NotFound", "events \"web-0.stream\" not found");
			}

		};
		assertThatExceptionOfType(EventSinkException.class)
			.isThrownBy(() -> this.writer.write("gone/web-0.stream", new TestWrite(missing, 1, 1), context(missing)))
			.satisfies((ex) -> {
				assertThat(ex.isNotFound()).isTrue();
				assertThat(ex.getMessage()).contains("namespaces \"gone\" not found");
			});
		assertThat(requests).containsExactly("create");
		assertThat(this.pauses).isEmpty();
	}

	@Test
	void otherFailuresAreThrownForTheRecordersRetries() {
		Ops failing = new FailingOperations() {

			@Override
			public CoreV1Event create(int count) throws EventSinkException {
				throw EventSinkException.of(EventSinkException.Kind.TRANSPORT, "connection refused", null);
			}

			@Override
			public CoreV1Event get() {
				throw new AssertionError("no read after a transport failure");
			}

		};
		assertThatExceptionOfType(EventSinkException.class)
			.isThrownBy(() -> write(this.writer, 1, 1, failing))
			.satisfies((ex) -> assertThat(ex.kind()).isEqualTo(EventSinkException.Kind.TRANSPORT));
	}

	@Test
	void aSeriesWriteBelowTwoWritesNothing() throws EventSinkException {
		StreamWriter<TestWrite, CoreV1Event, EventSink.CountPatch> series = writer(100, 2);
		write(series, 1, 1, operations());
		this.server.clearRequests();
		// a heartbeat of a series whose count 2 never reached the server: nothing to refresh
		StreamWriter.Result<CoreV1Event> result = write(series, 1, 0, operations());
		assertThat(result.event()).isNull();
		assertThat(this.server.requests()).isEmpty();
	}

	@Test
	void aWriteWithTheLocalCountOfTheLastOneCountsItsOccurrencesAsUnknown() throws EventSinkException {
		assertThat(write(3, 1)).isEqualTo(1);
		// the correlator forgot the stream and counted up to 3 again: its one occurrence, not none
		assertThat(write(3, 1)).isEqualTo(2);
	}

	@Test
	void aSeriesWriteOfExactlyTwoPatches() throws EventSinkException {
		StreamWriter<TestWrite, CoreV1Event, EventSink.CountPatch> series = writer(100, 2);
		write(series, 1, 1, operations());
		StreamWriter.Result<CoreV1Event> result = write(series, 2, 1, operations());
		assertThat(result.event().getCount()).isEqualTo(2);
		assertThat(this.server.requests()).containsExactly("create shop/web-0.stream", "patch shop/web-0.stream");
	}

	@Test
	void aStreamNeverWrittenHasNoServerCount() throws EventSinkException {
		assertThat(this.writer.serverCount("shop/web-0.stream")).isEqualTo(-1);
		write(1, 1);
		assertThat(this.writer.serverCount("shop/web-0.stream")).isEqualTo(1);
		assertThat(this.writer.serverCount("shop/db-0.stream")).isEqualTo(-1);
	}

	/** A refused read after a Conflict forgets what the process knew: its count is someone else's now. */
	@Test
	void aReadRefusedAfterAConflictForgetsTheStream() throws EventSinkException {
		write(1, 1);
		this.server.bump("shop/web-0.stream", 4);
		this.server.forbidGet();
		StreamWriter.Result<CoreV1Event> result = write(this.writer, 2, 1, operations());
		assertThat(result.readRefused()).isTrue();
		assertThat(result.event()).isNull();
		assertThat(this.writer.serverCount("shop/web-0.stream")).isEqualTo(-1);
		assertThat(stored()).isEqualTo(5);
	}

	/** The context of a write whose requests {@code ops} does. */
	private WriteContext context(Ops ops) {
		this.current = ops;
		return new WriteContext(null);
	}

	/** Operations whose create answers AlreadyExists and whose read fails with {@code failure}. */
	private static Ops readFailing(EventSinkException failure) {
		return new FailingOperations() {

			@Override
			public CoreV1Event create(int count) throws EventSinkException {
				throw EventSinkException.status(409, "AlreadyExists", "events \"web-0.stream\" already exists");
			}

			@Override
			public CoreV1Event get() throws EventSinkException {
				throw failure;
			}

		};
	}

	/** A 403 because the namespace is terminating is no RBAC refusal of the read: thrown for the recorder to count. */
	@Test
	void aReadRefusedBecauseTheNamespaceIsTerminatingIsThrown() {
		EventSinkException terminating = new EventSinkException(EventSinkException.Kind.HTTP_STATUS, 403, "Forbidden",
				true, "unable to create new content in namespace shop because it is being terminated", null);
		assertThatExceptionOfType(EventSinkException.class)
			.isThrownBy(() -> write(this.writer, 1, 1, readFailing(terminating)))
			.isSameAs(terminating);
	}

	@Test
	void aReadThatFailsOtherwiseIsThrownForTheRecordersRetries() {
		EventSinkException unavailable = EventSinkException.status(503, "ServiceUnavailable", "etcd is down");
		assertThatExceptionOfType(EventSinkException.class)
			.isThrownBy(() -> write(this.writer, 1, 1, readFailing(unavailable)))
			.isSameAs(unavailable);
	}

	/** A shutdown counted what the stream carried: it is no longer carried, and a stop has nothing to write. */
	@Test
	void aForgottenCarriedWriteIsNotWrittenAtTheStop() throws EventSinkException {
		write(1, 1);
		this.server.beforeRequest((request) -> {
			if (request.startsWith("patch")) {
				this.server.bump("shop/web-0.stream", 1);
			}
		});
		assertThat(write(this.writer, 2, 1, operations()).carried()).isTrue();
		StreamWriter.Carried<TestWrite> carried = this.writer.carried().get(0);
		this.writer.forget(carried);
		assertThat(this.writer.carried()).isEmpty();
		this.server.clearRequests();
		assertThat(writeCarried(carried)).isEqualTo(new StreamWriter.Result<CoreV1Event>(null, false));
		assertThat(this.server.requests()).isEmpty();
	}

	@Test
	void thePatchCarriesTheResourceVersionAsMetadata() {
		assertThat(new EventSink.CountPatch(2, NOW, "m", "41").toMap()).containsExactly(
				Map.entry("metadata", Map.of("resourceVersion", "41")),
				Map.entry("count", 2), Map.entry("lastTimestamp", "2026-12-02T15:00:00Z"),
				Map.entry("message", "m"));
		assertThat(new EventSink.CountPatch(2, NOW, "m").toMap()).containsOnlyKeys("count", "lastTimestamp",
				"message");
	}

}
