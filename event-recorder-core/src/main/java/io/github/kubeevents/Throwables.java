package io.github.kubeevents;

/**
 * Which failures the library lets pass instead of turning them into a mark or a counted drop: the JVM's own.
 *
 * <p>Stateless and thread-safe.
 */
final class Throwables {

	private Throwables() {
	}

	/**
	 * Rethrows the JVM's own failures ({@link VirtualMachineError}: out of memory, an internal error), which no
	 * recorder can handle; any other {@code Throwable} from user code (an argument's {@code toString}, an adapter)
	 * is the caller's input, and becomes a mark or a counted drop instead of reaching the caller (as Go's
	 * {@code fmt} recovers a panicking {@code String} method). A {@link StackOverflowError} is input too: the usual
	 * one is a cyclic {@code toString} of an entity, and by the time it is caught here its stack has unwound.
	 */
	static void rethrowIfFatal(Throwable failure) {
		if (failure instanceof VirtualMachineError fatal && !(failure instanceof StackOverflowError)) {
			throw fatal;
		}
	}

}
