package io.github.kubeevents;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 26 item 1: a stop that abandons a thread (stuck past the deadline in a call that ignores interrupts) leaves
 * a state that {@code start()} resumes truthfully: no second distribution thread beside the stuck one, no subscriber
 * that reports running while its events are counted as {@code shutdown}; the state is {@code starting} until the
 * stuck thread ends, events queue meanwhile, and then they are handled. {@code accepted = handled + dropped} holds.
 */
class AbandonedThreadRestartTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final RecordedEvent event = new RecordedEvent(InvolvedObject.of("Pod", "v1", "shop", "web-0"), null,
			EventType.WARNING, "BackOff", null, "Back-off restarting", Map.of(), new EventSource("kubelet", "node-1"),
			TestEvents.TIME);

	private final EventBroadcaster broadcaster = EventBroadcaster.builder().build();

	private final CountDownLatch release = new CountDownLatch(1);

	private final List<RecordedEvent> handled = new CopyOnWriteArrayList<>();

	@AfterEach
	void shutDown() {
		this.release.countDown();
		this.broadcaster.shutdown(WAIT);
	}

	/** Waits for {@link #release}, deaf to interrupts, as a stuck I/O call or log appender is. */
	private void stuck() {
		boolean interrupted = false;
		while (true) {
			try {
				if (this.release.await(1, TimeUnit.MINUTES)) {
					break;
				}
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void aStartWhileTheAbandonedSubscriberThreadIsStuckQueuesItsEventsAndHandlesThemOnceItEnds() {
		this.broadcaster.subscribe("stuck", (recorded) -> {
			if (this.handled.isEmpty()) {
				this.handled.add(recorded);
				stuck();
				return;
			}
			this.handled.add(recorded);
		});
		this.broadcaster.start();
		this.broadcaster.publish(this.event);
		await().atMost(WAIT).until(() -> this.handled.size() == 1);
		assertThat(this.broadcaster.stop(Duration.ofMillis(50))).as("the stop gave up on the stuck thread").isFalse();

		this.broadcaster.start();
		assertThat(this.broadcaster.stats().state()).isEqualTo("starting");
		for (int i = 0; i < 3; i++) {
			this.broadcaster.publish(this.event);
		}
		// distributed to the subscriber's queue, where they wait: not counted as shutdown drops
		await().atMost(WAIT).until(() -> this.broadcaster.stats().subscribers().get(0).depth() == 3);
		assertThat(this.broadcaster.stats().totalDropped()).isZero();
		assertThat(this.handled).hasSize(1);

		this.release.countDown();
		await().atMost(WAIT).until(() -> this.handled.size() == 4);
		assertThat(this.broadcaster.stats().state()).isEqualTo("running");
		assertThat(this.broadcaster.stats().accepted()).isEqualTo(4);
		assertThat(this.broadcaster.stats().totalDropped()).isZero();
		assertThat(this.broadcaster.shutdown(WAIT)).isTrue();
		assertThat(threadsNamed("kubeevents-")).isEmpty();
	}

	@Test
	void aStartWhileTheAbandonedDistributionThreadIsStuckWaitsForItInsteadOfRunningASecondOne() {
		// the distribution thread gets stuck logging its interruption (a blocking appender)
		Logger lifecycle = (Logger) LoggerFactory.getLogger(EventBroadcaster.class);
		UnsynchronizedAppenderBase<ILoggingEvent> blocking = new UnsynchronizedAppenderBase<>() {

			@Override
			protected void append(ILoggingEvent logged) {
				if (Thread.currentThread().getName().equals("kubeevents-broadcaster")
						&& logged.getFormattedMessage().contains("interrupted")) {
					stuck();
				}
			}

		};
		blocking.start();
		lifecycle.addAppender(blocking);
		try {
			CountDownLatch handlerBlocked = new CountDownLatch(1);
			// a queue of one with WAIT: the distribution thread waits for room while the handler is busy
			this.broadcaster.subscribe("slow", (recorded) -> {
				this.handled.add(recorded);
				if (this.handled.size() == 1) {
					handlerBlocked.countDown();
					try {
						// interruptible: the subscriber thread ends at the abort
						new CountDownLatch(1).await();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
			}, new Subscription.Options(1, Subscription.FullQueuePolicy.WAIT));
			this.broadcaster.start();
			for (int i = 0; i < 3; i++) {
				this.broadcaster.publish(this.event);
			}
			await().atMost(WAIT).until(() -> handlerBlocked.getCount() == 0);
			assertThat(this.broadcaster.stop(Duration.ofMillis(50))).isFalse();
			assertThat(distributionThreads()).as("the abandoned distribution thread").hasSize(1);

			this.broadcaster.start();
			assertThat(this.broadcaster.stats().state()).isEqualTo("starting");
			assertThat(this.broadcaster.isRunning()).isFalse();
			this.broadcaster.publish(this.event);
			this.broadcaster.publish(this.event);
			assertThat(distributionThreads()).as("no second distribution thread beside it").hasSize(1);

			this.release.countDown();
			await().atMost(WAIT).until(() -> this.broadcaster.isRunning());
			// the stop handled event 1 and counted the two it could not hand over; the start handles the two new
			await().atMost(WAIT).until(() -> this.handled.size() == 3);
			assertThat(this.broadcaster.stats().accepted()).isEqualTo(5);
			assertThat(this.broadcaster.stats().dropped("shutdown")).isEqualTo(2);
			assertThat(this.broadcaster.shutdown(WAIT)).isTrue();
			assertThat(this.handled.size() + this.broadcaster.stats().totalDropped()).isEqualTo(5);
		}
		finally {
			lifecycle.detachAppender(blocking);
		}
	}

	private static List<Thread> distributionThreads() {
		return threadsNamed("kubeevents-broadcaster").stream()
			.filter((thread) -> thread.getName().equals("kubeevents-broadcaster"))
			.toList();
	}

	private static List<Thread> threadsNamed(String prefix) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && thread.getName().startsWith(prefix))
			.toList();
	}

}
