package io.github.kubeevents.sink;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1APIResourceList;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReviewSpec;
import okhttp3.Call;
import org.jspecify.annotations.Nullable;

/**
 * The official Kubernetes Java client as an {@link EventsClient}: its {@link OfficialSink}s, discovery with the
 * generated {@link EventsV1Api}, the access review with {@link AuthorizationV1Api}; failures classified by
 * {@link EventSinkException#of(ApiException)}. What {@code EventBroadcaster.startRecordingTo(ApiClient)} writes
 * through, and what {@link EventsClient#of(ApiClient)} gives an application (a Spring bean, a decorator).
 *
 * <p>Thread-safe (as thread-safe as the {@link ApiClient}).
 */
final class OfficialEventsClient implements EventsClient {

	private final ApiClient client;

	OfficialEventsClient(ApiClient client) {
		this.client = Objects.requireNonNull(client, "client");
	}

	@Override
	public String server() {
		return this.client.getBasePath();
	}

	@Override
	public Sink<CoreV1Event, EventSink.CountPatch> coreV1Sink(Duration requestTimeout) {
		return OfficialSink.coreV1(this.client, requestTimeout);
	}

	@Override
	public Sink<EventsV1Event, EventsV1Sink.SeriesPatch> eventsV1Sink(Duration requestTimeout) {
		return OfficialSink.eventsV1(this.client, requestTimeout);
	}

	@Override
	public boolean servesEventsV1(Duration timeout) throws EventSinkException {
		try {
			Call call = new EventsV1Api(this.client).getAPIResources().buildCall(null);
			limit(call, timeout);
			this.client.execute(call, V1APIResourceList.class);
			return true;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return false;
			}
			throw EventSinkException.of(ex);
		}
	}

	@Override
	public boolean eventsAllowed(String apiGroup, String verb, @Nullable String namespace, Duration timeout)
			throws EventSinkException {
		V1SelfSubjectAccessReview review = new V1SelfSubjectAccessReview().spec(new V1SelfSubjectAccessReviewSpec()
			.resourceAttributes(new V1ResourceAttributes().group(apiGroup).resource("events").verb(verb).namespace(namespace)));
		try {
			Call call = new AuthorizationV1Api(this.client).createSelfSubjectAccessReview(review).buildCall(null);
			limit(call, timeout);
			V1SelfSubjectAccessReview answer = this.client.<V1SelfSubjectAccessReview>execute(call,
					V1SelfSubjectAccessReview.class).getData();
			return answer.getStatus() != null && Boolean.TRUE.equals(answer.getStatus().getAllowed());
		}
		catch (ApiException ex) {
			throw EventSinkException.of(ex);
		}
	}

	private static void limit(Call call, Duration timeout) {
		if (!timeout.isZero()) {
			call.timeout().timeout(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
	}

}
