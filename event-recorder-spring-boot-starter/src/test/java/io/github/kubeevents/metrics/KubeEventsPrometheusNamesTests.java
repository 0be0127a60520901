package io.github.kubeevents.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.github.kubeevents.CorrelatorOptions;
import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.testsupport.InMemoryEventSink;
import io.github.kubeevents.testsupport.TestClusters;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Pins how the recorder's meters ({@link KubeEventsMeterBinder}, {@link KubeEventsRequestTimer}) render in
 * Prometheus: the names are public API (dashboards and alerts use them). Micrometer appends the base unit and then
 * {@code _total} for counters; each must appear once.
 */
class KubeEventsPrometheusNamesTests {

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private final InMemoryEventSink sink = new InMemoryEventSink(1);

	private final EventBroadcaster broadcaster = EventBroadcaster.builder()
		.retryPolicy(new RetryPolicy(3, Duration.ZERO))
		.correlatorOptions(CorrelatorOptions.builder().burst(2).build())
		.requestListener(new KubeEventsRequestTimer(this.registry))
		.build();

	private String scrape;

	@BeforeEach
	void recordAndScrape() {
		new KubeEventsMeterBinder(this.broadcaster, List.of("sink")).bindTo(this.registry);
		this.broadcaster.startRecordingToSink(this.sink);
		this.broadcaster.start();
		EventRecorder recorder = this.broadcaster.newRecorder(EventSource.of("test"));
		// create: a transport failure, then created on the retry
		recorder.event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "started");
		await().until(() -> this.sink.created().size() == 1);
		// the same again: patched
		recorder.event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "started");
		await().until(() -> this.sink.patched().size() == 1);
		// another object: 403
		this.sink.failNext(EventSinkException.status(403, "Forbidden", "events is forbidden"));
		recorder.event(TestClusters.pod("web-2"), EventType.WARNING, "BackOff", "Back-off");
		await().until(() -> this.broadcaster.stats().dropped(DropReason.REJECTED_BY_SERVER.tag()) == 1);
		// web-1's bucket (burst 2) is empty: spam-filtered
		recorder.event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "started");
		await().until(() -> this.broadcaster.stats().dropped(DropReason.SPAM_FILTERED.tag()) == 1);
		this.scrape = this.registry.scrape();
	}

	@AfterEach
	void shutdown() {
		this.broadcaster.shutdown(Duration.ofSeconds(5));
	}

	@Test
	void scrapeHasExactlyTheDocumentedNames() {
		assertThat(sampleNames(this.scrape)).containsExactly("kubeevents_accepted_events_total",
				"kubeevents_dropped_events_total", "kubeevents_queue_capacity_events", "kubeevents_queue_depth_events",
				"kubeevents_server_throttled_total", "kubeevents_sink_requests_seconds_count",
				"kubeevents_sink_requests_seconds_max", "kubeevents_sink_requests_seconds_sum",
				"kubeevents_sink_retries_total", "kubeevents_truncated_events_total", "kubeevents_unformatted_events_total",
				"kubeevents_written_events_total", "kubeevents_written_without_patch_events_total");
	}

	@Test
	void noUnitOrSuffixIsDoubled() {
		assertThat(this.scrape).contains("kubeevents_").doesNotContain("_events_events").doesNotContain("_total_total");
	}

	@Test
	void scrapeHasTheDocumentedLabelsAndValues() {
		assertThat(this.scrape).contains("kubeevents_accepted_events_total 4.0\n")
			.contains("kubeevents_dropped_events_total{reason=\"invalid_input\"} 0.0\n")
			.contains("kubeevents_dropped_events_total{reason=\"queue_full\"} 0.0\n")
			.contains("kubeevents_dropped_events_total{reason=\"rejected_by_server\"} 1.0\n")
			.contains("kubeevents_dropped_events_total{reason=\"retries_exhausted\"} 0.0\n")
			.contains("kubeevents_dropped_events_total{reason=\"shutdown\"} 0.0\n")
			.contains("kubeevents_dropped_events_total{reason=\"spam_filtered\"} 1.0\n")
			.contains("kubeevents_written_events_total{result=\"created\"} 1.0\n")
			.contains("kubeevents_written_events_total{result=\"patched\"} 1.0\n")
			.contains("kubeevents_sink_retries_total 1.0\n")
			.contains("kubeevents_written_without_patch_events_total 0.0\n")
			.contains("kubeevents_server_throttled_total{source=\"api_priority_and_fairness\"} 0.0\n")
			.contains("kubeevents_server_throttled_total{source=\"event_rate_limit\"} 0.0\n")
			.contains("kubeevents_queue_depth_events{queue=\"incoming\"} 0.0\n")
			.contains("kubeevents_queue_depth_events{queue=\"sink\"} 0.0\n")
			.contains("kubeevents_queue_capacity_events{queue=\"incoming\"} 10000.0\n")
			.contains("kubeevents_queue_capacity_events{queue=\"sink\"} 20000.0\n")
			.contains("kubeevents_sink_requests_seconds_count{api=\"core/v1\",result=\"client_error\",verb=\"create\"} 1\n")
			.contains("kubeevents_sink_requests_seconds_count{api=\"core/v1\",result=\"success\",verb=\"create\"} 1\n")
			.contains("kubeevents_sink_requests_seconds_count{api=\"core/v1\",result=\"success\",verb=\"patch\"} 1\n")
			.contains("kubeevents_sink_requests_seconds_count{api=\"core/v1\",result=\"transport_error\",verb=\"create\"} 1\n");
	}

	@Test
	void scrapeHasTheDocumentedTypes() {
		assertThat(this.scrape).contains("# TYPE kubeevents_accepted_events_total counter\n")
			.contains("# TYPE kubeevents_dropped_events_total counter\n")
			.contains("# TYPE kubeevents_written_events_total counter\n")
			.contains("# TYPE kubeevents_sink_retries_total counter\n")
			.contains("# TYPE kubeevents_queue_depth_events gauge\n")
			.contains("# TYPE kubeevents_queue_capacity_events gauge\n")
			.contains("# TYPE kubeevents_sink_requests_seconds summary\n")
			.contains("# TYPE kubeevents_sink_requests_seconds_max gauge\n");
	}

	private static Set<String> sampleNames(String scrape) {
		Set<String> names = new TreeSet<>();
		for (String line : scrape.split("\n")) {
			if (!line.isBlank() && !line.startsWith("#")) {
				names.add(line.split("[{ ]", 2)[0]);
			}
		}
		return names;
	}

}
