package io.github.kubeevents.autoconfigure;

import java.util.function.Function;

import io.github.kubeevents.EventKeys;
import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * What shares one spam-filter token bucket, as configured with {@code kubeevents.correlator.spam-filter.key}.
 *
 * <p>Immutable and thread-safe.
 */
public enum SpamKey {

	/**
	 * One bucket per source and involved object and type, whatever the reason (client-go's default,
	 * {@link EventKeys#spamKey(CoreV1Event)}).
	 */
	OBJECT(EventKeys.SPAM_KEY),

	/**
	 * One bucket per source, involved object, type and reason ({@link EventKeys#spamKeyWithReason(CoreV1Event)}),
	 * so a flood of one reason does not silence an object's other reasons.
	 */
	OBJECT_AND_REASON(EventKeys.SPAM_KEY_WITH_REASON);

	private final Function<CoreV1Event, String> function;

	SpamKey(Function<CoreV1Event, String> function) {
		this.function = function;
	}

	/**
	 * The key function for {@link io.github.kubeevents.CorrelatorOptions#spamKeyFunction()}.
	 * @return the function (stateless, thread-safe)
	 */
	public Function<CoreV1Event, String> function() {
		return this.function;
	}

}
