package io.github.kubeevents.autoconfigure;

import java.util.EnumSet;
import java.util.Set;

import io.github.kubeevents.status.SinkClient;
import io.kubernetes.client.openapi.ApiClient;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Whether a client configuration contributes its {@code EventsClient} bean under {@code kubeevents.sink.client}, the
 * rules of {@link ClientChoice} at registration time: the official client for {@code auto} and {@code official}
 * ({@link Official}); the fabric8 client for {@code fabric8}, and for {@code auto} when the application did not
 * configure the official client, i.e. has neither an {@link ApiClient} nor a {@link KubeEventsConnectionDetails}
 * bean ({@link Fabric8}). The property is bound as {@link KubeEventsProperties} binds it; a value that does not bind
 * counts as {@code auto} here and fails startup when the properties are bound.
 *
 * <p>Stateless and thread-safe.
 */
abstract class SinkClientCondition extends SpringBootCondition {

	static final String PROPERTY = "kubeevents.sink.client";

	private final String client;

	private final Set<SinkClient> served;

	private SinkClientCondition(String client, Set<SinkClient> served) {
		this.client = client;
		this.served = served;
	}

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		ConditionMessage.Builder message = ConditionMessage.forCondition("kubeevents " + this.client + " client");
		SinkClient configured = configured(context);
		if (!this.served.contains(configured)) {
			return ConditionOutcome.noMatch(message.because(PROPERTY + "=" + configured.tag()));
		}
		return outcome(configured, context, message);
	}

	ConditionOutcome outcome(SinkClient configured, ConditionContext context, ConditionMessage.Builder message) {
		return ConditionOutcome.match(message.because(PROPERTY + "=" + configured.tag()));
	}

	private static SinkClient configured(ConditionContext context) {
		try {
			return Binder.get(context.getEnvironment()).bind(PROPERTY, SinkClient.class).orElse(SinkClient.AUTO);
		}
		catch (BindException ex) {
			return SinkClient.AUTO;
		}
	}

	/** The official client: {@code auto} or {@code official}. */
	static final class Official extends SinkClientCondition {

		Official() {
			super("official", EnumSet.of(SinkClient.AUTO, SinkClient.OFFICIAL));
		}

	}

	/** The fabric8 client: {@code fabric8}, or {@code auto} without the official client configured. */
	static final class Fabric8 extends SinkClientCondition {

		Fabric8() {
			super("fabric8", EnumSet.of(SinkClient.AUTO, SinkClient.FABRIC8));
		}

		@Override
		ConditionOutcome outcome(SinkClient configured, ConditionContext context, ConditionMessage.Builder message) {
			String property = PROPERTY + "=" + configured.tag();
			if (configured == SinkClient.AUTO) {
				ConfigurableListableBeanFactory beans = context.getBeanFactory();
				for (Class<?> official : new Class<?>[] { ApiClient.class, KubeEventsConnectionDetails.class }) {
					if (beans != null && beans.getBeanNamesForType(official, true, false).length > 0) {
						return ConditionOutcome.noMatch(message.because(property + " and the official client is"
								+ " configured (a " + official.getSimpleName() + " bean)"));
					}
				}
			}
			return ConditionOutcome.match(message.because(property));
		}

	}

}
