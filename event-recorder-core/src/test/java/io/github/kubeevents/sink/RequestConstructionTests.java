package io.github.kubeevents.sink;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A request of the official client's sink that cannot be built (a credential hook or a generated builder failing)
 * is a {@code REQUEST_CONSTRUCTION} failure, dropped as {@code invalid_input} without a retry, for a create, a patch
 * and a read alike: it used to escape the classification as a RuntimeException, which the write attempts retried 12
 * times as "the sink threw". Nothing is sent.
 */
class RequestConstructionTests {

	/** A client whose bearer-token hook fails, as a rotated token file that ends with a newline made it. */
	private final ApiClient client = failingCredentials();

	private final Sink<CoreV1Event, EventSink.CountPatch> sink = EventsClient.of(this.client)
		.coreV1Sink(Duration.ofSeconds(1));

	private static ApiClient failingCredentials() {
		ApiClient client = new ApiClient() {

			{
				this.authentications = Map.of("BearerToken", (query, headers, cookies, payload, method, uri) -> {
					throw new IllegalStateException("token file ends with a newline");
				});
			}

		};
		return client.setBasePath("http://127.0.0.1:1");
	}

	private static CoreV1Event event() {
		return new CoreV1Event().metadata(new V1ObjectMeta().name("web-0.1").namespace("shop"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "create", "patch", "get" })
	void aRequestThatCannotBeBuiltIsARequestConstructionFailure(String verb) {
		EventSinkException failure = catchThrowableOfType(EventSinkException.class, () -> {
			switch (verb) {
				case "create" -> this.sink.create(event());
				case "patch" -> this.sink.patch(event(),
						new EventSink.CountPatch(2, OffsetDateTime.parse("2026-12-07T12:00:00Z"), "m"));
				default -> this.sink.get("shop", "web-0.1");
			}
		});
		assertThat(failure.kind()).isEqualTo(EventSinkException.Kind.REQUEST_CONSTRUCTION);
		assertThat(failure.isRetryable()).isFalse();
		assertThat(failure.getMessage())
			.isEqualTo("Unable to construct " + verb + " request: token file ends with a newline");
	}

	@Test
	void anEventWithoutANamespaceIsRefusedBeforeAnythingIsBuilt() {
		EventSinkException failure = catchThrowableOfType(EventSinkException.class,
				() -> this.sink.create(new CoreV1Event().metadata(new V1ObjectMeta().name("x"))));
		assertThat(failure.kind()).isEqualTo(EventSinkException.Kind.REQUEST_CONSTRUCTION);
	}

}
