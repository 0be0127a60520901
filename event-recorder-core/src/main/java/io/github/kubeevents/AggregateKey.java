package io.github.kubeevents;

import java.util.Objects;

/**
 * The two keys an aggregate-key function returns: events with the same {@code aggregateKey} but different
 * {@code localKey}s are "similar", and ten of them in the window are folded into one aggregate event.
 *
 * <p>Immutable and thread-safe.
 *
 * @param aggregateKey groups similar events (by default: source, object, type, reason, reporting fields)
 * @param localKey tells similar events apart (by default: the message)
 */
public record AggregateKey(String aggregateKey, String localKey) {

	/**
	 * Rejects {@code null} keys.
	 */
	public AggregateKey {
		Objects.requireNonNull(aggregateKey, "aggregateKey");
		Objects.requireNonNull(localKey, "localKey");
	}

}
