package io.github.kubeevents.examples.josdk;

/**
 * What a {@link Greeting} asks for.
 */
public class GreetingSpec {

	private String name = "world";

	private int round;

	private boolean fail;

	/** @return whom to greet */
	public String getName() {
		return this.name;
	}

	/** @param name whom to greet */
	public void setName(String name) {
		this.name = name;
	}

	/** @return a counter a client bumps to have the greeting reconciled again (a new generation) */
	public int getRound() {
		return this.round;
	}

	/** @param round the counter */
	public void setRound(int round) {
		this.round = round;
	}

	/** @return whether reconciling this greeting fails (to show the Warning of a failed reconcile) */
	public boolean isFail() {
		return this.fail;
	}

	/** @param fail whether reconciling fails */
	public void setFail(boolean fail) {
		this.fail = fail;
	}

}
