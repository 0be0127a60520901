package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.status.SinkClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.github.kubeevents.CorrelatorOptions;
import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventKeys;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.Subscription;
import io.github.kubeevents.introspect.RecorderSnapshot.CorrelatorSnapshot;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.testsupport.InMemoryEventSink;
import io.github.kubeevents.testsupport.TestClusters;
import io.github.kubeevents.status.SinkMode;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.test.util.ReflectionTestUtils;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link KubeEventsProperties}: defaults, binding of every property into the built objects, and
 * validation.
 */
class KubeEventsPropertiesTests {

	private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

	@TempDir
	Path tmp;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> Machines.noCluster(this.tmp))
			.withBean(EventBroadcasterCustomizer.class, () -> (builder) -> builder.clock(Clock.fixed(NOW, ZoneOffset.UTC)));
	}

	private ApplicationContextRunner runnerWithSink(InMemoryEventSink sink) {
		return runner().withBean(EventSink.class, () -> sink)
			.withPropertyValues("kubeevents.log-events=false", "kubeevents.host=");
	}

	private static KubeEventsProperties properties(AssertableApplicationContext context) {
		return context.getBean(KubeEventsProperties.class);
	}

	private static EventBroadcaster broadcaster(AssertableApplicationContext context) {
		return context.getBean(EventBroadcaster.class);
	}

	private static RecorderSnapshot snapshot(AssertableApplicationContext context) {
		return broadcaster(context).snapshot(100);
	}

	private static CorrelatorSnapshot correlator(AssertableApplicationContext context) {
		return snapshot(context).sinks().get(0).correlator();
	}

	private static EventRecorder recorder(AssertableApplicationContext context) {
		return context.getBean(EventRecorder.class);
	}

	@Test
	void defaultsAreClientGosWhereClientGoHasTheSetting() {
		runner().run((context) -> {
			KubeEventsProperties properties = properties(context);
			assertThat(properties).isEqualTo(defaults());
			assertThat(properties.maxMessageBytes()).isEqualTo(1048576);
			assertThat(properties.sink().retry().toPolicy()).isEqualTo(RetryPolicy.defaults());
			assertThat(properties.correlator().spamFilter().qps()).isEqualTo(1.0 / 300);

			CorrelatorOptions options = properties.correlator().toOptionsBuilder(EventsApi.CORE_V1).build();
			CorrelatorOptions clientGo = CorrelatorOptions.defaults();
			assertThat(options.cacheSize()).isEqualTo(clientGo.cacheSize()).isEqualTo(4096);
			assertThat(options.spamFilterEnabled()).isTrue();
			assertThat(options.burst()).isEqualTo(clientGo.burst()).isEqualTo(25);
			assertThat(options.qps()).isEqualTo(clientGo.qps()).isEqualTo(1.0 / 300);
			assertThat(options.aggregationEnabled()).isTrue();
			assertThat(options.aggregateMaxEvents()).isEqualTo(clientGo.aggregateMaxEvents()).isEqualTo(10);
			assertThat(options.aggregateInterval()).isEqualTo(clientGo.aggregateInterval());
			assertThat(options.messagePrefix()).isEqualTo(CorrelatorOptions.DEFAULT_MESSAGE_PREFIX);

			RecorderSnapshot snapshot = snapshot(context);
			assertThat(snapshot.queue()).isEqualTo(new RecorderStats.Queue(0, 10_000));
			assertThat(snapshot.subscribers())
				.containsExactly(new RecorderStats.Subscriber("logging", 0, 10_000, "drop", 0));
			assertThat(ReflectionTestUtils.getField(context.getBean(KubeEventsLifecycle.class), "shutdownTimeout"))
				.isEqualTo(Duration.ofSeconds(10));
		});
	}

	/**
	 * The defaults, spelled out: client-go's (12 attempts 10 s apart, burst 25 refilled every 300 s, aggregation of
	 * 10 within 600 s, caches of 4096) but for the queues, which hold 10,000 instead of 1000.
	 * @return the defaults
	 */
	static KubeEventsProperties defaults() {
		return new KubeEventsProperties(true, null, null, true, Duration.ofSeconds(10), DataSize.ofMegabytes(1),
				new KubeEventsProperties.Kubeconfig(false),
				new KubeEventsProperties.Sink(SinkMode.AUTO, "auto", Duration.ofSeconds(5), 4, 20_000, 4096,
						new KubeEventsProperties.RateLimit(null, 10),
						new KubeEventsProperties.Retry(12, Duration.ofSeconds(10)), SinkClient.AUTO, false,
						"readers"),
				new KubeEventsProperties.Queue(10_000, 10_000, Subscription.FullQueuePolicy.DROP),
				new KubeEventsProperties.Correlator(4096,
						new KubeEventsProperties.SpamFilter(true, 25, Duration.ofSeconds(300), SpamKey.OBJECT, false,
								null, null),
						new KubeEventsProperties.Aggregation(true, 10, Duration.ofSeconds(600),
								"(combined from similar events): "),
						false, Duration.ZERO),
				true, new KubeEventsProperties.Tracing(true, false, "traceparent"));
	}

	@Test
	void aggregationAndSpamFilterDefaultOnForCoreV1AndOffForEventsV1() {
		runner().run((context) -> {
			KubeEventsProperties.Correlator correlator = properties(context).correlator();
			CorrelatorOptions coreV1 = correlator.toOptionsBuilder(EventsApi.CORE_V1).build();
			CorrelatorOptions eventsV1 = correlator.toOptionsBuilder(EventsApi.EVENTS_V1).build();
			assertThat(coreV1.aggregationEnabled()).isTrue();
			assertThat(coreV1.spamFilterEnabled()).isTrue();
			assertThat(eventsV1.aggregationEnabled()).isFalse();
			assertThat(eventsV1.spamFilterEnabled()).isFalse();
		});
		runner().withPropertyValues("kubeevents.correlator.spam-filter.enabled=true",
				"kubeevents.correlator.aggregation.enabled=false")
			.run((context) -> {
				KubeEventsProperties.Correlator correlator = properties(context).correlator();
				assertThat(correlator.toOptionsBuilder(EventsApi.EVENTS_V1).build().spamFilterEnabled())
					.as("events.k8s.io/v1 needs apply-to-events-v1")
					.isFalse();
				assertThat(correlator.toOptionsBuilder(EventsApi.CORE_V1).build().spamFilterEnabled()).isTrue();
				assertThat(correlator.toOptionsBuilder(EventsApi.CORE_V1).build().aggregationEnabled()).isFalse();
			});
		runner().withPropertyValues("kubeevents.correlator.apply-to-events-v1=true",
				"kubeevents.correlator.aggregation.enabled=false")
			.run((context) -> {
				KubeEventsProperties.Correlator correlator = properties(context).correlator();
				assertThat(correlator.toOptionsBuilder(EventsApi.EVENTS_V1).build().spamFilterEnabled()).isTrue();
				assertThat(correlator.toOptionsBuilder(EventsApi.EVENTS_V1).build().aggregationEnabled()).isFalse();
				assertThat(correlator.toOptionsBuilder(EventsApi.CORE_V1).build().aggregationEnabled()).isFalse();
			});
	}

	@Test
	void theWarningLaneAndTheMinimumUpdateIntervalAreOffByDefaultAndBindToTheCorrelatorOptions() {
		runner().run((context) -> {
			CorrelatorOptions options = properties(context).correlator().toOptionsBuilder(EventsApi.CORE_V1).build();
			assertThat(options.warningLane()).isFalse();
			assertThat(options.warningBurst()).isEqualTo(25);
			assertThat(options.warningQps()).isEqualTo(1.0 / 300);
			assertThat(options.minUpdateInterval()).isZero();
		});
		runner().withPropertyValues("kubeevents.correlator.spam-filter.warning-lane=true",
				"kubeevents.correlator.spam-filter.burst=5", "kubeevents.correlator.min-update-interval=30s")
			.run((context) -> {
				CorrelatorOptions options = properties(context).correlator().toOptionsBuilder(EventsApi.CORE_V1).build();
				assertThat(options.warningLane()).isTrue();
				assertThat(options.warningBurst()).as("the filter's burst").isEqualTo(5);
				assertThat(options.warningQps()).isEqualTo(1.0 / 300);
				assertThat(options.minUpdateInterval()).isEqualTo(Duration.ofSeconds(30));
			});
		runner().withPropertyValues("kubeevents.correlator.spam-filter.warning-lane=true",
				"kubeevents.correlator.spam-filter.warning-lane-burst=50",
				"kubeevents.correlator.spam-filter.warning-lane-refill-interval=60s")
			.run((context) -> {
				CorrelatorOptions options = properties(context).correlator().toOptionsBuilder(EventsApi.CORE_V1).build();
				assertThat(options.burst()).isEqualTo(25);
				assertThat(options.warningBurst()).isEqualTo(50);
				assertThat(options.warningQps()).isEqualTo(1.0 / 60);
			});
	}

	@Test
	void everySinkPropertyBindsUnderKubeeventsSink() {
		runner().withPropertyValues("kubeevents.sink.api=events.k8s.io/v1", "kubeevents.sink.mode=log",
				"kubeevents.sink.request-timeout=2s", "kubeevents.sink.writers=2",
				"kubeevents.sink.backlog-capacity=30", "kubeevents.sink.rate-limit.qps=5",
				"kubeevents.sink.rate-limit.burst=7", "kubeevents.sink.series-cache-size=99",
				"kubeevents.sink.retry.max-attempts=3", "kubeevents.sink.retry.sleep=1s", "kubeevents.sink.client=official",
				"kubeevents.sink.deterministic-names=true", "kubeevents.sink.shape=client-go")
			.run((context) -> {
				KubeEventsProperties properties = properties(context);
				assertThat(properties.sink().eventsApi()).isEqualTo(EventsApi.EVENTS_V1);
				assertThat(properties.sink()).isEqualTo(new KubeEventsProperties.Sink(SinkMode.LOG, "events.k8s.io/v1",
						Duration.ofSeconds(2), 2, 30, 99, new KubeEventsProperties.RateLimit(5.0, 7),
						new KubeEventsProperties.Retry(3, Duration.ofSeconds(1)), SinkClient.OFFICIAL, true, "client-go"));
				assertThat(properties.sink().eventShape()).isEqualTo(io.github.kubeevents.sink.EventShape.CLIENT_GO);
				assertThat(context.getBean(io.github.kubeevents.EventBroadcaster.class).stats().writeBudget())
					.isEqualTo(new io.github.kubeevents.introspect.RecorderStats.WriteBudget(5.0, 7, 0, Duration.ZERO));
			});
	}

	@Test
	void kubeconfigCanBeEnabled() {
		runner().withPropertyValues("kubeevents.kubeconfig.enabled=true")
			.run((context) -> assertThat(properties(context).kubeconfig().enabled()).isTrue());
	}

	@Test
	void queuePropertiesSizeTheQueues() {
		runner().withPropertyValues("kubeevents.queue.capacity=5", "kubeevents.queue.subscriber-capacity=7",
				"kubeevents.queue.full-policy=wait")
			.run((context) -> {
				assertThat(properties(context).queue())
					.isEqualTo(new KubeEventsProperties.Queue(5, 7, Subscription.FullQueuePolicy.WAIT));
				RecorderSnapshot snapshot = snapshot(context);
				assertThat(snapshot.queue()).isEqualTo(new RecorderStats.Queue(0, 5));
				assertThat(snapshot.subscribers())
					.containsExactly(new RecorderStats.Subscriber("logging", 0, 7, "wait", 0));
			});
	}

	@Test
	void aSinksCapacityIsItsBacklogOverEveryWriterAndNoSubscriberQueue() {
		runnerWithSink(new InMemoryEventSink())
			.withPropertyValues("kubeevents.queue.subscriber-capacity=7", "kubeevents.sink.writers=3",
					"kubeevents.sink.backlog-capacity=5", "kubeevents.log-events=true")
			.run((context) -> assertThat(snapshot(context).subscribers()).containsExactly(
					new RecorderStats.Subscriber("sink", 0, 5, "drop", 0),
					new RecorderStats.Subscriber("logging", 0, 7, "drop", 0)));
	}

	@Test
	void theBacklogCapacityDefaultsToTwentyThousandWhateverTheSubscriberCapacity() {
		runnerWithSink(new InMemoryEventSink()).withPropertyValues("kubeevents.queue.subscriber-capacity=10")
			.run((context) -> assertThat(snapshot(context).subscribers()).extracting(
					RecorderStats.Subscriber::capacity)
				.containsExactly(20_000));
	}

	@Test
	void retryPropertiesBoundTheAttempts() {
		InMemoryEventSink sink = new InMemoryEventSink(5);
		runnerWithSink(sink).withPropertyValues("kubeevents.sink.retry.max-attempts=2", "kubeevents.sink.retry.sleep=0s")
			.run((context) -> {
				assertThat(properties(context).sink().retry()).isEqualTo(new KubeEventsProperties.Retry(2, Duration.ZERO));
				recorder(context).event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "started");
				await().until(() -> broadcaster(context).stats().dropped(DropReason.RETRIES_EXHAUSTED.tag()) == 1);
				assertThat(snapshot(context).sinks().get(0).stats()).isEqualTo(new RecorderStats.Writes(0, 0, 1, 1));
				assertThat(sink.created()).isEmpty();
			});
	}

	@Test
	void maxMessageSizeDropsLongerMessages() {
		InMemoryEventSink sink = new InMemoryEventSink();
		runnerWithSink(sink).withPropertyValues("kubeevents.max-message-size=10B").run((context) -> {
			assertThat(properties(context).maxMessageBytes()).isEqualTo(10);
			recorder(context).event(TestClusters.pod("web-1"), EventType.NORMAL, "Long", "12345678901");
			recorder(context).event(TestClusters.pod("web-1"), EventType.NORMAL, "Short", "1234567890");
			await().until(() -> sink.created().size() == 1);
			assertThat(sink.created().get(0).getReason()).isEqualTo("Short");
			assertThat(broadcaster(context).stats().dropped(DropReason.INVALID_INPUT.tag())).isEqualTo(1);
		});
	}

	@Test
	void shutdownTimeoutReachesTheLifecycle() {
		runner().withPropertyValues("kubeevents.shutdown-timeout=3s")
			.run((context) -> assertThat(
					ReflectionTestUtils.getField(context.getBean(KubeEventsLifecycle.class), "shutdownTimeout"))
				.isEqualTo(Duration.ofSeconds(3)));
	}

	@Test
	void correlatorPropertiesBindIntoTheOptions() {
		runner().withPropertyValues("kubeevents.correlator.cache-size=64",
				"kubeevents.correlator.spam-filter.enabled=false", "kubeevents.correlator.spam-filter.burst=3",
				"kubeevents.correlator.spam-filter.refill-interval=2s",
				"kubeevents.correlator.spam-filter.key=object-and-reason",
				"kubeevents.correlator.aggregation.enabled=false", "kubeevents.correlator.aggregation.max-events=4",
				"kubeevents.correlator.aggregation.interval=2m")
			.withInitializer(
					TestClusters.rawProperties(Map.of("kubeevents.correlator.aggregation.message-prefix", "[agg] ")))
			.run((context) -> {
				assertThat(properties(context).correlator().spamFilter().refillInterval())
					.isEqualTo(Duration.ofSeconds(2));
				CorrelatorOptions options = properties(context).correlator().toOptionsBuilder(EventsApi.CORE_V1).build();
				assertThat(options.cacheSize()).isEqualTo(64);
				assertThat(options.spamFilterEnabled()).isFalse();
				assertThat(options.burst()).isEqualTo(3);
				assertThat(options.qps()).isEqualTo(0.5);
				assertThat(properties(context).correlator().spamFilter().key()).isEqualTo(SpamKey.OBJECT_AND_REASON);
				CoreV1Event event = new CoreV1Event().reason("Started").type("Normal");
				assertThat(options.spamKeyFunction().apply(event)).isEqualTo(EventKeys.spamKeyWithReason(event));
				assertThat(options.spamKeyFunction()).as("the constant the correlator hashes from the fields")
					.isSameAs(EventKeys.SPAM_KEY_WITH_REASON);
				assertThat(options.aggregationEnabled()).isFalse();
				assertThat(options.aggregateMaxEvents()).isEqualTo(4);
				assertThat(options.aggregateInterval()).isEqualTo(Duration.ofMinutes(2));
				assertThat(options.messagePrefix()).isEqualTo("[agg] ");
			});
	}

	@Test
	void spamFilterBurstSizesTheBuckets() {
		InMemoryEventSink sink = new InMemoryEventSink();
		runnerWithSink(sink).withPropertyValues("kubeevents.correlator.spam-filter.burst=3").run((context) -> {
			recorder(context).event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "started");
			await().until(() -> sink.created().size() == 1);
			assertThat(correlator(context).spamBuckets()).extracting(CorrelatorSnapshot.SpamBucket::tokensLeft)
				.containsExactly(2.0);
		});
	}

	@Test
	void spamFilterRefillIntervalPacesTheBuckets() {
		InMemoryEventSink sink = new InMemoryEventSink();
		runnerWithSink(sink)
			.withPropertyValues("kubeevents.correlator.spam-filter.burst=1",
					"kubeevents.correlator.spam-filter.refill-interval=42s")
			.run((context) -> {
				recorder(context).event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "started");
				await().until(() -> sink.created().size() == 1);
				assertThat(correlator(context).spamBuckets()).singleElement()
					.satisfies((bucket) -> assertThat(bucket.timeToNextToken()).isEqualTo(Duration.ofSeconds(42)));
			});
	}

	@Test
	void spamFilterBurstDropsTheRest() {
		InMemoryEventSink sink = new InMemoryEventSink();
		runnerWithSink(sink).withPropertyValues("kubeevents.correlator.spam-filter.burst=1").run((context) -> {
			recorder(context).event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "one");
			recorder(context).event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "two");
			await().until(() -> broadcaster(context).stats().dropped(DropReason.SPAM_FILTERED.tag()) == 1);
			assertThat(sink.created()).extracting(CoreV1Event::getMessage).containsExactly("one");
		});
	}

	@Test
	void spamFilterCanBeDisabled() {
		InMemoryEventSink sink = new InMemoryEventSink();
		runnerWithSink(sink)
			.withPropertyValues("kubeevents.correlator.spam-filter.enabled=false",
					"kubeevents.correlator.spam-filter.burst=1")
			.run((context) -> {
				recorder(context).event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "one");
				recorder(context).event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "two");
				await().until(() -> sink.created().size() == 2);
				assertThat(correlator(context).spamBucketsSize()).isZero();
				assertThat(broadcaster(context).stats().dropped(DropReason.SPAM_FILTERED.tag())).isZero();
			});
	}

	@Test
	void spamKeyObjectAndReasonGivesEachReasonItsBucket() {
		InMemoryEventSink sink = new InMemoryEventSink();
		runnerWithSink(sink).withPropertyValues("kubeevents.correlator.spam-filter.key=object-and-reason")
			.run((context) -> {
				recordTwoReasons(context);
				await().until(() -> sink.created().size() == 2);
				assertThat(correlator(context).spamBuckets())
					.extracting(CorrelatorSnapshot.SpamBucket::reason, CorrelatorSnapshot.SpamBucket::tokensLeft)
					.containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("Started", 24.0),
							org.assertj.core.groups.Tuple.tuple("Pulled", 24.0));
			});
	}

	@Test
	void spamKeyObjectSharesOneBucketPerObject() {
		InMemoryEventSink sink = new InMemoryEventSink();
		runnerWithSink(sink).run((context) -> {
			recordTwoReasons(context);
			await().until(() -> sink.created().size() == 2);
			assertThat(correlator(context).spamBuckets()).singleElement().satisfies((bucket) -> {
				assertThat(bucket.object().name()).isEqualTo("web-1");
				assertThat(bucket.tokensLeft()).isEqualTo(23.0);
			});
		});
	}

	private static void recordTwoReasons(AssertableApplicationContext context) {
		recorder(context).event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "started");
		recorder(context).event(TestClusters.pod("web-1"), EventType.NORMAL, "Pulled", "pulled");
	}

	@Test
	void aggregationFoldsSimilarEventsWithThePrefix() {
		InMemoryEventSink sink = new InMemoryEventSink();
		runnerWithSink(sink).withPropertyValues("kubeevents.correlator.aggregation.max-events=2")
			.withInitializer(
					TestClusters.rawProperties(Map.of("kubeevents.correlator.aggregation.message-prefix", "[agg] ")))
			.run((context) -> {
				recorder(context).event(TestClusters.pod("web-1"), EventType.WARNING, "Failed", "error 1");
				recorder(context).event(TestClusters.pod("web-1"), EventType.WARNING, "Failed", "error 2");
				await().until(() -> sink.created().size() == 2);
				assertThat(sink.created()).extracting(CoreV1Event::getMessage)
					.containsExactly("error 1", "[agg] error 2");
			});
	}

	@Test
	void aggregationCanBeDisabled() {
		InMemoryEventSink sink = new InMemoryEventSink();
		runnerWithSink(sink)
			.withPropertyValues("kubeevents.correlator.aggregation.enabled=false",
					"kubeevents.correlator.aggregation.max-events=2")
			.run((context) -> {
				recorder(context).event(TestClusters.pod("web-1"), EventType.WARNING, "Failed", "error 1");
				recorder(context).event(TestClusters.pod("web-1"), EventType.WARNING, "Failed", "error 2");
				await().until(() -> sink.created().size() == 2);
				assertThat(sink.created()).extracting(CoreV1Event::getMessage).containsExactly("error 1", "error 2");
				assertThat(correlator(context).aggregatorSize()).isZero();
			});
	}

	@Test
	void cacheSizeBoundsTheCorrelatorCaches() {
		InMemoryEventSink sink = new InMemoryEventSink();
		runnerWithSink(sink).withPropertyValues("kubeevents.correlator.cache-size=1").run((context) -> {
			for (int i = 0; i < 5; i++) {
				recorder(context).event(TestClusters.pod("web-" + i), EventType.NORMAL, "Started", "started");
			}
			await().until(() -> sink.created().size() == 5);
			// Caffeine evicts asynchronously
			await().untilAsserted(() -> {
				CorrelatorSnapshot correlator = correlator(context);
				assertThat(List.of(correlator.aggregatorSize(), correlator.observedSize(), correlator.spamBucketsSize()))
					.containsExactly(1L, 1L, 1L);
			});
		});
	}

	@Test
	void customizersRunAfterTheProperties() {
		runner().withPropertyValues("kubeevents.queue.capacity=5")
			.withBean("queueCustomizer", EventBroadcasterCustomizer.class, () -> (builder) -> builder.incomingQueueCapacity(9))
			.run((context) -> assertThat(snapshot(context).queue().capacity()).isEqualTo(9));
	}

	@Test
	void correlatorCustomizersRunAfterTheProperties() {
		runner().withPropertyValues("kubeevents.correlator.spam-filter.burst=3")
			.withBean(CorrelatorOptionsCustomizer.class, () -> (builder) -> builder.burst(7))
			.withBean(EventSink.class, InMemoryEventSink::new)
			.run((context) -> {
				recorder(context).event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "started");
				await().untilAsserted(() -> assertThat(correlator(context).spamBuckets())
					.extracting(CorrelatorSnapshot.SpamBucket::tokensLeft)
					.containsExactly(6.0));
			});
	}

	/**
	 * An invalid value of every numeric, duration and data size property (zero, negative, out of range), with the
	 * message naming the property; {@link #everyNumericPropertyHasAnInvalidValueCase()} keeps it complete.
	 * @return assignment and message
	 */
	static Stream<Arguments> invalidValues() {
		return Stream.of(
		Arguments.of("kubeevents.shutdown-timeout=0s", "kubeevents.shutdown-timeout must be positive, was 'PT0S'"),
		Arguments.of("kubeevents.shutdown-timeout=-1s", "kubeevents.shutdown-timeout must be positive, was 'PT-1S'"),
		Arguments.of("kubeevents.max-message-size=0B", "kubeevents.max-message-size must be between 1B and 2147483647B, was '0B'"),
		Arguments.of("kubeevents.max-message-size=-1B", "kubeevents.max-message-size must be between 1B and 2147483647B, was '-1B'"),
		Arguments.of("kubeevents.max-message-size=2GB", "kubeevents.max-message-size must be between 1B and 2147483647B, was '2147483648B'"),
		Arguments.of("kubeevents.sink.api=events/v2", "kubeevents.sink.api must be one of auto, events.k8s.io/v1, core/v1, was 'events/v2'"),
		Arguments.of("kubeevents.sink.request-timeout=-1s", "kubeevents.sink.request-timeout must be zero (no limit) or positive, was 'PT-1S'"),
		Arguments.of("kubeevents.sink.writers=0", "kubeevents.sink.writers must be between 1 and 64, was '0'"),
		Arguments.of("kubeevents.sink.writers=-1", "kubeevents.sink.writers must be between 1 and 64, was '-1'"),
		Arguments.of("kubeevents.sink.writers=65", "kubeevents.sink.writers must be between 1 and 64, was '65'"),
		Arguments.of("kubeevents.sink.backlog-capacity=0", "kubeevents.sink.backlog-capacity must be between 1 and 16777216, was '0'"),
		Arguments.of("kubeevents.sink.backlog-capacity=16777217", "kubeevents.sink.backlog-capacity must be between 1 and 16777216, was '16777217'"),
		Arguments.of("kubeevents.sink.series-cache-size=0", "kubeevents.sink.series-cache-size must be at least 1, was '0'"),
		Arguments.of("kubeevents.sink.series-cache-size=-1", "kubeevents.sink.series-cache-size must be at least 1, was '-1'"),
		Arguments.of("kubeevents.sink.rate-limit.qps=0", "kubeevents.sink.rate-limit.qps must be positive, was '0.0'"),
		Arguments.of("kubeevents.sink.rate-limit.qps=-1", "kubeevents.sink.rate-limit.qps must be positive, was '-1.0'"),
		Arguments.of("kubeevents.sink.rate-limit.qps=NaN", "kubeevents.sink.rate-limit.qps must be positive, was 'NaN'"),
		Arguments.of("kubeevents.sink.rate-limit.qps=Infinity", "kubeevents.sink.rate-limit.qps must be positive, was 'Infinity'"),
		Arguments.of("kubeevents.sink.rate-limit.burst=0", "kubeevents.sink.rate-limit.burst must be at least 1, was '0'"),
		Arguments.of("kubeevents.sink.rate-limit.burst=-1", "kubeevents.sink.rate-limit.burst must be at least 1, was '-1'"),
		Arguments.of("kubeevents.sink.retry.max-attempts=0", "kubeevents.sink.retry.max-attempts must be at least 1, was '0'"),
		Arguments.of("kubeevents.sink.retry.max-attempts=-1", "kubeevents.sink.retry.max-attempts must be at least 1, was '-1'"),
		Arguments.of("kubeevents.sink.retry.sleep=-1s", "kubeevents.sink.retry.sleep must be zero or positive, was 'PT-1S'"),
		Arguments.of("kubeevents.queue.capacity=0", "kubeevents.queue.capacity must be between 1 and 16777216, as a queue's slots are allocated at startup, was '0'"),
		Arguments.of("kubeevents.queue.capacity=-5", "kubeevents.queue.capacity must be between 1 and 16777216, as a queue's slots are allocated at startup, was '-5'"),
		Arguments.of("kubeevents.queue.capacity=100000000", "kubeevents.queue.capacity must be between 1 and 16777216, as a queue's slots are allocated at startup, was '100000000'"),
		Arguments.of("kubeevents.queue.subscriber-capacity=0", "kubeevents.queue.subscriber-capacity must be between 1 and 16777216, as a queue's slots are allocated at startup, was '0'"),
		Arguments.of("kubeevents.queue.subscriber-capacity=-1", "kubeevents.queue.subscriber-capacity must be between 1 and 16777216, as a queue's slots are allocated at startup, was '-1'"),
		Arguments.of("kubeevents.correlator.cache-size=0", "kubeevents.correlator.cache-size must be at least 1, was '0'"),
		Arguments.of("kubeevents.correlator.cache-size=-1", "kubeevents.correlator.cache-size must be at least 1, was '-1'"),
		Arguments.of("kubeevents.correlator.spam-filter.burst=0", "kubeevents.correlator.spam-filter.burst must be at least 1, was '0'"),
		Arguments.of("kubeevents.correlator.spam-filter.burst=-1", "kubeevents.correlator.spam-filter.burst must be at least 1, was '-1'"),
		Arguments.of("kubeevents.correlator.spam-filter.refill-interval=0s", "kubeevents.correlator.spam-filter.refill-interval must be positive, was 'PT0S'"),
		Arguments.of("kubeevents.correlator.spam-filter.refill-interval=-5s", "kubeevents.correlator.spam-filter.refill-interval must be positive, was 'PT-5S'"),
		Arguments.of("kubeevents.correlator.spam-filter.warning-lane-burst=0", "kubeevents.correlator.spam-filter.warning-lane-burst must be at least 1, was '0'"),
		Arguments.of("kubeevents.correlator.spam-filter.warning-lane-refill-interval=0s", "kubeevents.correlator.spam-filter.warning-lane-refill-interval must be positive, was 'PT0S'"),
		Arguments.of("kubeevents.correlator.min-update-interval=-1s", "kubeevents.correlator.min-update-interval must be zero or positive, was 'PT-1S'"),
		Arguments.of("kubeevents.correlator.aggregation.max-events=1", "kubeevents.correlator.aggregation.max-events must be at least 2, was '1'"),
		Arguments.of("kubeevents.correlator.aggregation.max-events=-1", "kubeevents.correlator.aggregation.max-events must be at least 2, was '-1'"),
		Arguments.of("kubeevents.correlator.aggregation.interval=0s", "kubeevents.correlator.aggregation.interval must be positive, was 'PT0S'"),
		Arguments.of("kubeevents.correlator.aggregation.interval=-1s", "kubeevents.correlator.aggregation.interval must be positive, was 'PT-1S'"));
	}

	@ParameterizedTest
	@MethodSource("invalidValues")
	void invalidValueFailsStartupNamingThePropertyAndTheValue(String property, String message) {
		runner().withPropertyValues(property).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure())
				.isInstanceOf(InvalidKubeEventsPropertyException.class)
				.hasMessage(message);
		});
	}

	@Test
	void everyInvalidValueOfOneGroupIsReported() {
		runner().withPropertyValues("kubeevents.sink.writers=0", "kubeevents.sink.backlog-capacity=0",
				"kubeevents.queue.capacity=-5")
			.run((context) -> assertThat(context.getStartupFailure())
				.isInstanceOf(InvalidKubeEventsPropertyException.class)
				.hasMessage("kubeevents.queue.capacity must be between 1 and 16777216, as a queue's slots are allocated"
						+ " at startup, was '-5'; kubeevents.sink.backlog-capacity must be between 1 and 16777216, was"
						+ " '0'; kubeevents.sink.writers must be between 1 and 64, was '0'"));
	}

	@Test
	void everyNumericPropertyHasAnInvalidValueCase() throws IOException {
		Set<String> covered = invalidValues().map((arguments) -> ((String) arguments.get()[0]).split("=")[0])
			.collect(Collectors.toSet());
		assertThat(ConfigurationMetadataTests.propertyNamesOfTypes("kubeevents.", "java.lang.Integer",
				"java.lang.Double", "java.time.Duration", "org.springframework.util.unit.DataSize"))
			.isNotEmpty()
			.allSatisfy((name) -> assertThat(covered).as("invalid value cases").contains(name));
	}

	@Test
	void blankComponentFailsStartup() {
		runner().withInitializer(TestClusters.rawProperties(Map.of("kubeevents.component", "   "))).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure())
				.isInstanceOf(InvalidKubeEventsPropertyException.class)
				.hasMessage("kubeevents.component must not be blank, was '   '");
		});
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			kubeevents.sink.mode=cluster                            | kubeevents.sink.mode must be one of auto, kubernetes, log, none, was 'cluster'
			kubeevents.sink.client=kubectl                          | kubeevents.sink.client must be one of auto, official, fabric8, was 'kubectl'
			kubeevents.queue.full-policy=block                      | kubeevents.queue.full-policy must be one of drop, wait, was 'block'
			kubeevents.correlator.spam-filter.key=reason            | kubeevents.correlator.spam-filter.key must be one of object, object-and-reason, was 'reason'
			kubeevents.correlator.spam-filter.refill-interval=often | kubeevents.correlator.spam-filter.refill-interval must be a duration such as 10s, 500ms or 5m, was 'often'
			kubeevents.sink.retry.max-attempts=many                 | kubeevents.sink.retry.max-attempts must be a whole number, was 'many'
			kubeevents.sink.retry.sleep=soon                        | kubeevents.sink.retry.sleep must be a duration such as 10s, 500ms or 5m, was 'soon'
			kubeevents.sink.rate-limit.qps=fast                     | kubeevents.sink.rate-limit.qps must be a number, was 'fast'
			kubeevents.correlator.aggregation.enabled=yes-please    | kubeevents.correlator.aggregation.enabled must be true or false, was 'yes-please'
			kubeevents.max-message-size=large                       | kubeevents.max-message-size must be a data size such as 1MB or 512KB, was 'large'
			""")
	void unconvertibleValueFailsStartupNamingThePropertyAndAValidValue(String property, String message) {
		runner().withPropertyValues(property).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(InvalidKubeEventsPropertyException.class)
				.hasMessage(message);
		});
	}

	/**
	 * A second-scale duration written as a number alone, which Spring Boot would read as milliseconds, fails startup
	 * with the fix; {@code 0} is the same in every unit and stays valid, as do values with a unit.
	 * @param assignment the property and its value
	 * @param message the failure's message, or empty when it starts
	 */
	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			kubeevents.correlator.min-update-interval=5                    | kubeevents.correlator.min-update-interval must have a unit, as a number alone is read as milliseconds: write 5s or 5ms, was '5'
			kubeevents.correlator.spam-filter.refill-interval=300          | kubeevents.correlator.spam-filter.refill-interval must have a unit, as a number alone is read as milliseconds: write 300s or 300ms, was '300'
			kubeevents.correlator.spam-filter.warning-lane-refill-interval=60 | kubeevents.correlator.spam-filter.warning-lane-refill-interval must have a unit, as a number alone is read as milliseconds: write 60s or 60ms, was '60'
			kubeevents.correlator.aggregation.interval=600                 | kubeevents.correlator.aggregation.interval must have a unit, as a number alone is read as milliseconds: write 600s or 600ms, was '600'
			kubeevents.shutdown-timeout=10                                 | kubeevents.shutdown-timeout must have a unit, as a number alone is read as milliseconds: write 10s or 10ms, was '10'
			kubeevents.sink.request-timeout=5                              | kubeevents.sink.request-timeout must have a unit, as a number alone is read as milliseconds: write 5s or 5ms, was '5'
			kubeevents.sink.retry.sleep=+500                               | kubeevents.sink.retry.sleep must have a unit, as a number alone is read as milliseconds: write 500s or 500ms, was '+500'
			kubeevents.sink.retry.sleep=-1                                 | kubeevents.sink.retry.sleep must be zero or positive, was 'PT-0.001S'
			kubeevents.correlator.min-update-interval=0                    |
			kubeevents.sink.request-timeout=0                              |
			kubeevents.correlator.min-update-interval=5ms                  |
			kubeevents.correlator.spam-filter.refill-interval=PT5M         |
			""")
	void aSecondScaleDurationWithoutAUnitFailsStartupWithTheFix(String assignment, String message) {
		runner().withPropertyValues(assignment).run((context) -> {
			if (message == null) {
				assertThat(context).hasNotFailed();
			}
			else {
				assertThat(context.getStartupFailure()).isInstanceOf(InvalidKubeEventsPropertyException.class)
					.hasMessage(message);
			}
		});
	}

	@Test
	void aDurationWithoutAUnitFromYamlIsRejectedToo() {
		runner().withInitializer(TestClusters.rawProperties(Map.of("kubeevents.correlator.min-update-interval", 5)))
			.run((context) -> assertThat(context.getStartupFailure())
				.isInstanceOf(InvalidKubeEventsPropertyException.class)
				.hasMessage("kubeevents.correlator.min-update-interval must have a unit, as a number alone is read as"
						+ " milliseconds: write 5s or 5ms, was '5'"));
	}

	@Test
	void everySecondScaleDurationIsCheckedForAUnit() throws IOException {
		assertThat(KubeEventsPropertyValues.SECOND_SCALE_DURATIONS).containsExactlyInAnyOrderElementsOf(
				ConfigurationMetadataTests.propertyNamesOfTypes("kubeevents.", "java.time.Duration"));
	}

}
