package io.github.kubeevents;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReviewSpec;
import okhttp3.Call;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the client's identity may use one verb on Events: one SelfSubjectAccessReview (which every authenticated
 * user may make), for any API group, verb and namespace.
 *
 * <p>Stateless and thread-safe.
 */
final class AccessReview {

	private static final Logger logger = LoggerFactory.getLogger(EventBroadcaster.class);

	private AccessReview() {
	}

	/**
	 * Asks whether the identity may {@code verb} {@code events} of {@code group} in {@code namespace}.
	 * @param client the client
	 * @param group the API group: {@code ""} for core/v1, {@code events.k8s.io}
	 * @param verb e.g. {@code get}, {@code create}, {@code patch}
	 * @param namespace the namespace, or {@code null} for every namespace
	 * @param timeout the time limit of the request; {@link Duration#ZERO} for the client's own
	 * @return the review's answer; {@code null} when the review itself failed (logged at WARN)
	 */
	static @Nullable Boolean eventsAllowed(ApiClient client, String group, String verb, @Nullable String namespace,
			Duration timeout) {
		V1SelfSubjectAccessReview review = new V1SelfSubjectAccessReview().spec(new V1SelfSubjectAccessReviewSpec()
			.resourceAttributes(new V1ResourceAttributes().group(group).resource("events").verb(verb).namespace(namespace)));
		String what = verb + " on events (" + (group.isEmpty() ? "core/v1" : group) + ") in "
				+ ((namespace != null) ? "namespace '" + namespace + "'" : "every namespace");
		try {
			Call call = new AuthorizationV1Api(client).createSelfSubjectAccessReview(review).buildCall(null);
			if (!timeout.isZero()) {
				call.timeout().timeout(timeout.toNanos(), TimeUnit.NANOSECONDS);
			}
			V1SelfSubjectAccessReview answer = client.<V1SelfSubjectAccessReview>execute(call,
					V1SelfSubjectAccessReview.class).getData();
			return answer.getStatus() != null && Boolean.TRUE.equals(answer.getStatus().getAllowed());
		}
		catch (ApiException ex) {
			logger.warn("Could not ask whether {} is allowed: {}", what, ApiErrors.classify(ex).getMessage());
			return null;
		}
		catch (RuntimeException ex) {
			logger.warn("Could not ask whether {} is allowed: {}", what, ex.toString());
			return null;
		}
	}

}
