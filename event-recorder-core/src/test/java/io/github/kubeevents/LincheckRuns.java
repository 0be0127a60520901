package io.github.kubeevents;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;

/**
 * The sizes of the Lincheck runs (docs/testing.md): small enough for the default build, a few seconds each on two
 * cores, and larger on demand with the system properties {@code lincheck.modelChecking.iterations},
 * {@code lincheck.modelChecking.invocations}, {@code lincheck.stress.iterations},
 * {@code lincheck.stress.invocations} and {@code lincheck.scenario.invocations}, as Caffeine's LincheckOptions. The
 * runs that must find a planted bug have fixed sizes: a smaller run could miss it.
 */
final class LincheckRuns {

	private LincheckRuns() {
	}

	/**
	 * Model checking of generated scenarios: three threads (two recording threads and the consumer), three
	 * operations each, two before and one after the parallel part.
	 */
	static ModelCheckingOptions modelChecking() {
		return modelChecking(Integer.getInteger("lincheck.modelChecking.iterations", 20),
				Integer.getInteger("lincheck.modelChecking.invocations", 300));
	}

	static ModelCheckingOptions modelChecking(int scenarios, int interleavingsPerScenario) {
		return new ModelCheckingOptions().iterations(scenarios)
			.invocationsPerIteration(interleavingsPerScenario)
			.threads(3)
			.actorsPerThread(3)
			.actorsBefore(2)
			.actorsAfter(1);
	}

	/** Stress runs of generated scenarios of the same shape, on real threads and the real memory model. */
	static StressOptions stress() {
		return new StressOptions().iterations(Integer.getInteger("lincheck.stress.iterations", 10))
			.invocationsPerIteration(Integer.getInteger("lincheck.stress.invocations", 1_000))
			.threads(3)
			.actorsPerThread(3)
			.actorsBefore(2)
			.actorsAfter(1);
	}

	/** Interleavings explored per hand-written scenario by {@code Lincheck.runConcurrentTest}. */
	static int scenarioInvocations() {
		return Integer.getInteger("lincheck.scenario.invocations", 300);
	}

	/** Runs two actions on two threads at once and waits for both. */
	static void race(Runnable first, Runnable second) {
		Thread one = new Thread(first);
		Thread two = new Thread(second);
		one.start();
		two.start();
		join(one);
		join(two);
	}

	/** Joins a thread of a hand-written scenario. */
	static void join(Thread thread) {
		try {
			thread.join();
		}
		catch (InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A plain check in a hand-written scenario: the model checker reports the message with the interleaving (no
	 * assertion library).
	 */
	static void check(boolean condition, String message) {
		if (!condition) {
			throw new AssertionError(message);
		}
	}

}
