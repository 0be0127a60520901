package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.RetryPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 8, item 1: truthful drop logging through a running broadcaster. For floods of spam-filtered, queue-full
 * and shutdown drops the numbers in the WARN summaries add up to the counters exactly; a summary is written by the
 * distribution thread without any further drop once the injected clock has passed the interval; and the final
 * summary at shutdown lists every reason with its exact count.
 */
class DropLoggingTests {

	private static final Instant START = Instant.parse("2026-11-30T12:00:00Z");

	private static final Duration INTERVAL = Duration.ofSeconds(10);

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final Pattern SUMMARY = Pattern
		.compile("Dropped (\\d+) event\\(s\\) \\(([a-z_]+)\\) since the last report; latest: .*");

	private final TickingClock clock = TickingClock.fixed(START);

	private final LogCapture log = LogCapture.of(EventCounters.class, Level.INFO);

	private final List<EventBroadcaster> broadcasters = new ArrayList<>();

	private final CountDownLatch release = new CountDownLatch(1);

	@AfterEach
	void close() {
		this.release.countDown();
		try {
			for (EventBroadcaster broadcaster : this.broadcasters) {
				broadcaster.shutdown(WAIT);
			}
			await().atMost(WAIT).until(() -> EventBroadcasterTests.kubeEventsThreads().isEmpty());
		}
		finally {
			this.log.close();
		}
	}

	private EventBroadcaster broadcaster(EventBroadcaster.Builder builder) {
		EventBroadcaster broadcaster = builder.clock(this.clock).dropSummaryInterval(INTERVAL).build();
		this.broadcasters.add(broadcaster);
		return broadcaster;
	}

	/** The numbers of the summary lines of one reason, in order. */
	private List<Long> summaries(String reason) {
		List<Long> numbers = new ArrayList<>();
		for (String line : this.log.warnings()) {
			Matcher matcher = SUMMARY.matcher(line);
			if (matcher.matches() && matcher.group(2).equals(reason)) {
				numbers.add(Long.parseLong(matcher.group(1)));
			}
		}
		return numbers;
	}

	private long summedUp(String reason) {
		return summaries(reason).stream().mapToLong(Long::longValue).sum();
	}

	private String finalSummary() {
		return this.log.warnings()
			.stream()
			.filter((line) -> line.startsWith("Kubernetes event recorder stopped"))
			.reduce((a, b) -> b)
			.orElseThrow();
	}

	private void blocked(RecordedEvent event) {
		try {
			this.release.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void spamFloodIsSummarisedExactlyWithoutAFurtherDrop() {
		ScriptedSink sink = new ScriptedSink();
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("flood"));
		InvolvedObject pod = TestEvents.object("Pod", "web-0", "shop");
		for (int i = 0; i < 40; i++) {
			recorder.event(pod, EventType.WARNING, "Reason" + i, "message " + i);
		}
		await().atMost(WAIT).until(() -> sink.succeeded() == 25 && broadcaster.stats().dropped(DropReason.SPAM_FILTERED.tag()) == 15);
		// no further drop: the distribution thread writes what is left once the interval has passed
		this.clock.advance(INTERVAL);
		await().atMost(WAIT).until(() -> summedUp("spam_filtered") == 15);
		assertThat(summaries("spam_filtered")).as("at most one summary per interval").hasSizeBetween(1, 2);
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(summedUp("spam_filtered")).isEqualTo(15);
		assertThat(finalSummary()).isEqualTo("Kubernetes event recorder stopped: accepted 40, created 25, patched 0, "
				+ "dropped 15 {queue_full=0, spam_filtered=15, rejected_by_server=0, retries_exhausted=0, shutdown=0, invalid_input=0}");
	}

	@Test
	void firstSummaryOfABurstNeedsNoFurtherDropAndNoClockChange() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder().incomingQueueCapacity(10));
		for (int i = 0; i < 25; i++) {
			broadcaster.publish(TestEvents.recorded("R", "m", TestEvents.object("Pod", "p" + i, "ns")));
		}
		assertThat(broadcaster.stats().dropped(DropReason.QUEUE_FULL.tag())).isEqualTo(15);
		assertThat(summaries("queue_full")).as("no thread before start").isEmpty();
		broadcaster.start();
		await().atMost(WAIT).until(() -> summedUp("queue_full") == 15);
		assertThat(summaries("queue_full")).containsExactly(15L);
	}

	@Test
	void queueFullFloodAtRecordAndAtTheSubscriberIsSummarisedExactly() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder().incomingQueueCapacity(100));
		List<RecordedEvent> handled = new CopyOnWriteArrayList<>();
		broadcaster.subscribe("slow", (event) -> {
			handled.add(event);
			blocked(event);
		}, new Subscription.Options(10, Subscription.FullQueuePolicy.DROP));
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("flood"));
		for (int i = 0; i < 1000; i++) {
			recorder.event(TestEvents.object("Pod", "p" + i, "ns"), EventType.NORMAL, "R", "m");
		}
		assertThat(broadcaster.stats().dropped(DropReason.QUEUE_FULL.tag())).isEqualTo(900);
		broadcaster.start();
		await().atMost(WAIT).until(() -> broadcaster.stats().queue().depth() == 0 && handled.size() == 1);
		// 100 distributed: 10 queued and 1 in the handler, or 10 queued and the handler's one taken after the burst
		long atTheSubscriber = broadcaster.stats().subscribers().get(0).dropped();
		assertThat(atTheSubscriber).isBetween(89L, 90L);
		long total = broadcaster.stats().dropped(DropReason.QUEUE_FULL.tag());
		assertThat(total).isEqualTo(900 + atTheSubscriber);
		this.clock.advance(INTERVAL);
		await().atMost(WAIT).until(() -> summedUp("queue_full") == total);
		assertThat(summaries("queue_full")).hasSizeBetween(1, 2);
		this.release.countDown();
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(summedUp("queue_full")).isEqualTo(total);
		assertThat(handled).hasSize((int) (100 - atTheSubscriber));
		assertThat(finalSummary()).isEqualTo("Kubernetes event recorder stopped: accepted 100, created 0, patched 0, "
				+ "dropped " + total + " {queue_full=" + total
				+ ", spam_filtered=0, rejected_by_server=0, retries_exhausted=0, shutdown=0, invalid_input=0}");
	}

	@Test
	void shutdownFloodIsSummarisedExactlyAtShutdown() throws Exception {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		CountDownLatch entered = new CountDownLatch(1);
		broadcaster.subscribe("stuck", (event) -> {
			entered.countDown();
			blocked(event);
		});
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("flood"));
		for (int i = 0; i < 300; i++) {
			recorder.event(TestEvents.object("Pod", "p" + i, "ns"), EventType.NORMAL, "R", "m");
		}
		assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
		await().atMost(WAIT).until(() -> broadcaster.stats().subscribers().get(0).depth() == 299);
		assertThat(broadcaster.shutdown(Duration.ofMillis(1))).isFalse();
		long lost = broadcaster.stats().dropped(DropReason.SHUTDOWN.tag());
		assertThat(lost).as("all but the one in the handler").isEqualTo(299);
		assertThat(summedUp("shutdown")).isEqualTo(299);
		assertThat(finalSummary()).isEqualTo("Kubernetes event recorder stopped: accepted 300, created 0, patched 0, "
				+ "dropped 299 {queue_full=0, spam_filtered=0, rejected_by_server=0, retries_exhausted=0, shutdown=299, invalid_input=0}");

		// after termination no thread is left: the caller's next drop past the interval writes the summary
		for (int i = 0; i < 20; i++) {
			recorder.event(TestEvents.object("Pod", "late", "ns"), EventType.NORMAL, "R", "m");
		}
		this.clock.advance(INTERVAL);
		recorder.event(TestEvents.object("Pod", "late", "ns"), EventType.NORMAL, "R", "m");
		assertThat(broadcaster.stats().dropped(DropReason.SHUTDOWN.tag())).isEqualTo(320);
		assertThat(summedUp("shutdown")).isEqualTo(320);
	}

	@Test
	void dropsWhileStoppedAreSummarisedByTheCallerAtMostOncePerIntervalAndAtStart() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder().incomingQueueCapacity(2));
		broadcaster.start();
		assertThat(broadcaster.stop(WAIT)).isTrue();
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("stopped"));
		InvolvedObject pod = TestEvents.object("Pod", "web-0", "shop");
		for (int i = 0; i < 5; i++) {
			recorder.event(pod, EventType.NORMAL, "Reason" + i, "m");
		}
		// 2 wait for the restart, 3 are dropped: the first drop is reported at once, by the recording thread
		assertThat(broadcaster.stats().dropped(DropReason.QUEUE_FULL.tag())).isEqualTo(3);
		assertThat(summaries("queue_full")).containsExactly(1L);
		this.clock.advance(INTERVAL.minusSeconds(1));
		recorder.event(pod, EventType.NORMAL, "Late", "m");
		assertThat(summaries("queue_full")).as("within the interval").containsExactly(1L);
		this.clock.advance(Duration.ofSeconds(1));
		recorder.event(pod, EventType.NORMAL, "Later", "m");
		assertThat(summaries("queue_full")).as("the interval has passed").containsExactly(1L, 4L);
		recorder.event(pod, EventType.NORMAL, "Last", "m");
		assertThat(summaries("queue_full")).containsExactly(1L, 4L);
		broadcaster.start();
		assertThat(summaries("queue_full")).as("at start").containsExactly(1L, 4L, 1L);
		assertThat(summedUp("queue_full")).isEqualTo(broadcaster.stats().dropped(DropReason.QUEUE_FULL.tag()));
	}

	@Test
	void everyReasonIsInTheFinalSummaryWithItsExactCount() {
		ScriptedSink sink = new ScriptedSink();
		sink.failNext(EventSinkException.status(403, "Forbidden", "events is forbidden"));
		sink.failNext(EventSinkException.of(EventSinkException.Kind.TRANSPORT, "refused", null),
				EventSinkException.of(EventSinkException.Kind.TRANSPORT, "refused", null));
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder()
			.incomingQueueCapacity(40)
			.retryPolicy(new RetryPolicy(2, Duration.ZERO))
			.sleeper((duration) -> {
			}));
		broadcaster.startRecordingToSink(sink);
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("all"));
		InvolvedObject pod = TestEvents.object("Pod", "web-0", "shop");
		for (int i = 0; i < 45; i++) {
			recorder.event(pod, EventType.NORMAL, "Reason" + i, "m");
		}
		recorder.event(pod, null, "R", "invalid");
		broadcaster.start();
		await().atMost(WAIT).until(() -> broadcaster.stats().dropped(DropReason.SPAM_FILTERED.tag()) == 15
				&& broadcaster.stats().writes().created() + broadcaster.stats().writes().failed() == 25);
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		recorder.event(pod, EventType.WARNING, "BackOff", "Back-off restarting failed container");
		// 45 recorded: 40 accepted, 5 queue_full; of the 40: 1 rejected (403), 1 retries exhausted (2 attempts),
		// 23 created, 15 spam filtered (the bucket of 25 is shared by the object's reasons)
		assertThat(finalSummary()).isEqualTo("Kubernetes event recorder stopped: accepted 40, created 23, patched 0, "
				+ "dropped 23 {queue_full=5, spam_filtered=15, rejected_by_server=1, retries_exhausted=1, shutdown=0, invalid_input=1}");
		assertThat(broadcaster.stats().dropped(DropReason.SHUTDOWN.tag())).isEqualTo(1);
		// the event after the final line is summed up at once
		assertThat(this.log.warnings()).last()
			.isEqualTo("Dropped 1 event(s) (shutdown) since the last report; latest: object=\"shop/web-0\" kind=\"Pod\""
					+ " type=\"Warning\" reason=\"BackOff\"");
		DocOutputs.check("docs/observability.md", "stop-line", finalSummary());
		DocOutputs.check("docs/observability.md", "after-stop-line", this.log.warnings().get(this.log.warnings().size() - 1));
	}

	/**
	 * Records every DEBUG call actually made on a library logger with a {@code describe()} string among its
	 * arguments. Turbo filters see each call before the level check, so a call whose arguments were built although
	 * DEBUG is off shows up here, while guarded calls ({@code isDebugEnabled()} first) do not.
	 */
	static final class DescribeCalls extends TurboFilter {

		final List<String> calls = new CopyOnWriteArrayList<>();

		@Override
		public FilterReply decide(Marker marker, ch.qos.logback.classic.Logger logger, Level level, String format,
				Object[] params, Throwable t) {
			if (level == Level.DEBUG && format != null && logger.getName().startsWith("io.github.kubeevents")
					&& params != null) {
				for (Object param : params) {
					if (param instanceof String text && text.contains("object=\"")) {
						this.calls.add(logger.getName() + ": " + format);
					}
				}
			}
			return FilterReply.NEUTRAL;
		}

	}

	@Test
	void dropPathsBuildNoDescriptionsWhenDebugIsOff() {
		LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
		DescribeCalls describeCalls = new DescribeCalls();
		describeCalls.start();
		context.addTurboFilter(describeCalls);
		try {
			floodEveryDropPath();
			assertThat(describeCalls.calls).isEmpty();
			try (LogCapture debug = LogCapture.of("io.github.kubeevents", Level.DEBUG)) {
				floodEveryDropPath();
				assertThat(describeCalls.calls).as("the probe sees DEBUG calls when DEBUG is on").isNotEmpty();
			}
		}
		finally {
			context.getTurboFilterList().remove(describeCalls);
		}
	}

	/** Spam, queue-full (at record and at the subscriber) and shutdown drops, and retries cut by shutdown. */
	private void floodEveryDropPath() {
		ScriptedSink sink = new ScriptedSink();
		for (int i = 0; i < 200; i++) {
			sink.failNext(EventSinkException.of(EventSinkException.Kind.TRANSPORT, "refused", null));
		}
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder()
			.incomingQueueCapacity(50)
			.subscriberOptions(new Subscription.Options(30, Subscription.FullQueuePolicy.DROP))
			.sinkBacklogCapacity(30)
			.retryPolicy(new RetryPolicy(12, Duration.ofHours(1))));
		broadcaster.startRecordingToSink(sink);
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("flood"));
		InvolvedObject pod = TestEvents.object("Pod", "web-0", "shop");
		for (int i = 0; i < 100; i++) {
			recorder.event(pod, EventType.NORMAL, "Reason" + i, "m");
		}
		broadcaster.start();
		await().atMost(WAIT).until(() -> broadcaster.stats().queue().depth() == 0 && sink.callCount() >= 1);
		broadcaster.shutdown(WAIT);
		recorder.event(pod, EventType.NORMAL, "R", "after shutdown");
		// 50 at record; more at the subscriber when it falls behind the distribution thread
		assertThat(broadcaster.stats().dropped(DropReason.QUEUE_FULL.tag())).isGreaterThanOrEqualTo(50);
		assertThat(broadcaster.stats().dropped(DropReason.SPAM_FILTERED.tag())).isGreaterThan(0);
		assertThat(broadcaster.stats().dropped(DropReason.SHUTDOWN.tag())).isGreaterThan(1);
	}

}
