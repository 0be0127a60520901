package io.github.kubeevents;

/**
 * Fixes a broadcaster's retry jitter for tests of other modules (the builder's {@code jitter} is package-private):
 * with {@code 0.5}, a core/v1 write's first retry waits half the retry sleep, exactly. Shared through core's
 * test-jar. Stateless.
 */
public final class TestJitter {

	private TestJitter() {
	}

	/**
	 * @param builder the builder
	 * @param uniform the value every jitter draw returns, in [0, 1)
	 * @return the builder
	 */
	public static EventBroadcaster.Builder fixed(EventBroadcaster.Builder builder, double uniform) {
		return builder.jitter(() -> uniform);
	}

}
