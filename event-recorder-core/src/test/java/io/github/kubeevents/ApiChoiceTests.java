package io.github.kubeevents;

import java.time.Duration;

import ch.qos.logback.classic.Level;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.EventsV1Sink;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The events API chosen for a client ({@link EventsClient}, whichever client it is): configured, or by discovery
 * for {@code auto}, with the failure in the reason; and the access review of the RBAC fallback, {@code null} when
 * it failed.
 */
class ApiChoiceTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	/** A client whose discovery and review answer as scripted; its sinks are never asked for here. */
	private record ScriptedClient(Object discovery, Object review) implements EventsClient {

		@Override
		public EventSink coreV1Sink(Duration requestTimeout) {
			throw new AssertionError("not asked");
		}

		@Override
		public EventsV1Sink eventsV1Sink(Duration requestTimeout) {
			throw new AssertionError("not asked");
		}

		@Override
		public boolean servesEventsV1(Duration timeout) throws EventSinkException {
			return answer(this.discovery);
		}

		@Override
		public boolean eventsAllowed(String apiGroup, String verb, String namespace, Duration timeout)
				throws EventSinkException {
			return answer(this.review);
		}

		private static boolean answer(Object scripted) throws EventSinkException {
			if (scripted instanceof EventSinkException ex) {
				throw ex;
			}
			if (scripted instanceof RuntimeException ex) {
				throw ex;
			}
			return (Boolean) scripted;
		}

	}

	@Test
	void aConfiguredApiAsksNothing() {
		ScriptedClient client = new ScriptedClient(new IllegalStateException("must not be asked"), true);
		assertThat(ApiChoice.choose(EventsApi.CORE_V1, client, TIMEOUT))
			.isEqualTo(new ApiChoice(EventsApi.CORE_V1, "configured"));
		assertThat(ApiChoice.choose(EventsApi.EVENTS_V1, client, TIMEOUT))
			.isEqualTo(new ApiChoice(EventsApi.EVENTS_V1, "configured"));
	}

	@Test
	void autoFollowsDiscovery() {
		assertThat(ApiChoice.choose(EventsApi.AUTO, new ScriptedClient(true, true), TIMEOUT))
			.isEqualTo(new ApiChoice(EventsApi.EVENTS_V1, "auto: the API server serves events.k8s.io/v1"));
		assertThat(ApiChoice.choose(EventsApi.AUTO, new ScriptedClient(false, true), TIMEOUT))
			.isEqualTo(new ApiChoice(EventsApi.CORE_V1, "auto: the API server does not serve events.k8s.io/v1"));
	}

	@Test
	void autoWritesCoreV1WhenDiscoveryFailsAndSaysWhy() {
		EventSinkException unavailable = EventSinkException.status(503, "ServiceUnavailable", "HTTP 503 ServiceUnavailable: busy");
		assertThat(ApiChoice.choose(EventsApi.AUTO, new ScriptedClient(unavailable, true), TIMEOUT))
			.isEqualTo(new ApiChoice(EventsApi.CORE_V1,
					"auto: discovery of events.k8s.io/v1 failed (HTTP 503 ServiceUnavailable: busy), using core/v1"));
		assertThat(ApiChoice.choose(EventsApi.AUTO, new ScriptedClient(new IllegalStateException("broken"), true), TIMEOUT))
			.isEqualTo(new ApiChoice(EventsApi.CORE_V1,
					"auto: discovery of events.k8s.io/v1 failed (java.lang.IllegalStateException: broken), using core/v1"));
	}

	/** A failed review answers nothing (asked again), with one WARN naming the failure as the client reported it. */
	@Test
	void theAccessReviewOfAClientIsAskedAgainWhenItFailed() {
		assertThat(EventsAccess.review(new ScriptedClient(true, true), TIMEOUT).allowed("", "create", "ns")).isTrue();
		assertThat(EventsAccess.review(new ScriptedClient(true, false), TIMEOUT).allowed("", "create", "ns")).isFalse();
		try (LogCapture log = LogCapture.of(RecorderLog.CATEGORY, Level.WARN)) {
			assertThat(EventsAccess.review(new ScriptedClient(true,
					EventSinkException.of(EventSinkException.Kind.TRANSPORT, "Transport failure: timeout", null)),
					TIMEOUT).allowed("", "create", "ns"))
				.isNull();
			assertThat(EventsAccess.review(new ScriptedClient(true, new IllegalStateException("x")), TIMEOUT)
				.allowed("events.k8s.io", "patch", "ns")).isNull();
			assertThat(log.warnings()).containsExactly(
					"Could not ask whether create on events in API group '' is allowed in namespace 'ns': Transport"
							+ " failure: timeout",
					"Could not ask whether patch on events in API group 'events.k8s.io' is allowed in namespace 'ns':"
							+ " java.lang.IllegalStateException: x");
		}
	}

}
