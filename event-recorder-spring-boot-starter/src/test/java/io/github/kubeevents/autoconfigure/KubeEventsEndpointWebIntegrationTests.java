package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.autoconfigure.testapp.KubeEventsTestApplication;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.awaitility.Awaitility.await;

/**
 * HTTP tests of {@code /actuator/kubeevents} and the {@code kubeevents} health component, against a real server
 * with the {@link KubeEventsTestApplication} (in-memory sink, fixed clock). The methods share one context, so
 * they run in order.
 */
@SpringBootTest(classes = KubeEventsTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=kubeevents,health",
				"management.endpoint.health.show-details=always", "spring.application.name=events-test",
				"kubeevents.host=test-host" })
@AutoConfigureRestTestClient
@DirtiesContext
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubeEventsEndpointWebIntegrationTests {

	@Autowired
	RestTestClient client;

	@Autowired
	EventRecorder recorder;

	@Autowired
	InMemoryEventSink sink;

	@Test
	@Order(1)
	void describesTheRecordedEventExactly() {
		this.recorder.event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "Started container web");
		await().until(() -> this.sink.created().size() == 1);
		this.client.get()
			.uri("/actuator/kubeevents")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.json("""
					{
					  "component": "events-test",
					  "host": "test-host",
					  "sink": {
					    "configured": "auto",
					    "effective": "kubernetes",
					    "reason": "EventSink bean",
					    "apiServer": null,
					    "logEvents": true
					  },
					  "recorder": {
					    "takenAt": "2026-01-02T03:04:05Z",
					    "running": true,
					    "queue": { "depth": 0, "capacity": 1000 },
					    "dropped": {
					      "queue_full": 0, "spam_filtered": 0, "rejected_by_server": 0,
					      "retries_exhausted": 0, "shutdown": 0, "invalid_input": 0
					    },
					    "subscribers": [
					      { "name": "sink", "depth": 0, "capacity": 1000, "fullQueuePolicy": "DROP", "dropped": 0 },
					      { "name": "logging", "depth": 0, "capacity": 1000, "fullQueuePolicy": "DROP", "dropped": 0 }
					    ],
					    "sinks": [
					      {
					        "name": "sink",
					        "stats": { "created": 1, "patched": 0, "retried": 0, "failed": 0 },
					        "correlator": {
					          "aggregatorSize": 1,
					          "aggregateRecords": [
					            {
					              "key": "events-testtest-hostPoddefaultweb-1uid-web-1v1NormalStartedevents-testtest-host",
					              "distinctMessages": 1,
					              "lastSeen": "2026-01-02T03:04:05Z"
					            }
					          ],
					          "observedSize": 1,
					          "observedEvents": [
					            {
					              "key": "events-testtest-hostPoddefaultweb-1uid-web-1v1NormalStartedStarted container web",
					              "name": "web-1.1886caf21c963200",
					              "count": 1,
					              "firstTimestamp": "2026-01-02T03:04:05Z",
					              "lastTimestamp": "2026-01-02T03:04:05Z"
					            }
					          ],
					          "spamBucketsSize": 1,
					          "spamBuckets": [
					            {
					              "key": "events-testtest-hostPoddefaultweb-1uid-web-1v1Normal",
					              "tokensLeft": 24.0,
					              "timeToNextToken": "PT0S"
					            }
					          ]
					        }
					      }
					    ]
					  }
					}
					""", JsonCompareMode.STRICT);
	}

	@Test
	@Order(2)
	void limitBoundsEachCorrelatorList() {
		this.recorder.event(TestClusters.pod("web-2"), EventType.WARNING, "BackOff", "Back-off restarting");
		await().until(() -> this.sink.created().size() == 2);
		this.client.get()
			.uri("/actuator/kubeevents?limit=1")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.recorder.sinks[0].stats.created")
			.isEqualTo(2)
			.jsonPath("$.recorder.sinks[0].correlator.aggregatorSize")
			.isEqualTo(2)
			.jsonPath("$.recorder.sinks[0].correlator.aggregateRecords.length()")
			.isEqualTo(1)
			.jsonPath("$.recorder.sinks[0].correlator.observedSize")
			.isEqualTo(2)
			.jsonPath("$.recorder.sinks[0].correlator.observedEvents.length()")
			.isEqualTo(1)
			.jsonPath("$.recorder.sinks[0].correlator.spamBucketsSize")
			.isEqualTo(2)
			.jsonPath("$.recorder.sinks[0].correlator.spamBuckets.length()")
			.isEqualTo(1);
		this.client.get()
			.uri("/actuator/kubeevents")
			.exchange()
			.expectBody()
			.jsonPath("$.recorder.sinks[0].correlator.observedEvents.length()")
			.isEqualTo(2);
	}

	@Test
	@Order(3)
	void zeroLimitListsNothing() {
		this.client.get()
			.uri("/actuator/kubeevents?limit=0")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.recorder.sinks[0].correlator.observedSize")
			.isEqualTo(2)
			.jsonPath("$.recorder.sinks[0].correlator.observedEvents")
			.isEmpty();
	}

	@Test
	@Order(4)
	void negativeLimitIsABadRequest() {
		this.client.get().uri("/actuator/kubeevents?limit=-1").exchange().expectStatus().isBadRequest();
	}

	@Test
	@Order(5)
	void nonNumericLimitIsABadRequest() {
		this.client.get().uri("/actuator/kubeevents?limit=all").exchange().expectStatus().isBadRequest();
	}

	@Test
	@Order(6)
	void healthShowsTheRecorder() {
		this.client.get()
			.uri("/actuator/health")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.components.kubeevents")
			.isEqualTo(java.util.Map.of("status", "UP", "details",
					java.util.Map.of("sink", "kubernetes", "queueDepth", 0, "queueCapacity", 1000, "accepted", 2,
							"dropped", 0)));
	}

	@Test
	@Order(7)
	void writeOperationsAreNotMapped() {
		this.client.post().uri("/actuator/kubeevents").exchange().expectStatus().is4xxClientError();
	}

}
