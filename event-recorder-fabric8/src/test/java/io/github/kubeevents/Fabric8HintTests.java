package io.github.kubeevents;

import ch.qos.logback.classic.Level;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.github.kubeevents.fabric8.Fabric8Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fabric8 object recorded without {@link Fabric8Objects#ADAPTER} is an {@code invalid_input} drop whose WARN line
 * names the adapter, and the module when it is missing: core recognises the object by class name only.
 */
class Fabric8HintTests {

	private static final String DROP = "Dropped event (invalid_input): Could not record event"
			+ " (object=io.fabric8.kubernetes.api.model.Pod type=\"Normal\" reason=\"Started\"): cannot reference an"
			+ " object of type io.fabric8.kubernetes.api.model.Pod, a fabric8 object: record it with"
			+ " recorder.about(object, io.github.kubeevents.fabric8.Fabric8Objects.ADAPTER)";

	private final EventBroadcaster broadcaster = EventBroadcaster.builder().build();

	private final EventRecorder recorder = this.broadcaster.newRecorder(EventSource.of("hint-test"));

	private final LogCapture drops = LogCapture.of(EventCounters.class, Level.INFO);

	private final Pod pod = new PodBuilder().withNewMetadata().withNamespace("ns").withName("web-0").endMetadata().build();

	@AfterEach
	void close() {
		this.drops.close();
		this.broadcaster.shutdown();
	}

	@Test
	void eventfWithAFabric8ObjectNamesTheAdapterInTheDropLine() {
		this.recorder.eventf(this.pod, EventType.NORMAL, "Started", "started %s", "web");
		assertThat(this.broadcaster.stats().dropped(DropReason.INVALID_INPUT.tag())).isEqualTo(1);
		assertThat(this.drops.messages(Level.WARN)).containsExactly(DROP);
	}

	@Test
	void aboutWithoutTheAdapterNamesItToo() {
		this.recorder.about(this.pod).normal("Started", "started");
		assertThat(this.broadcaster.stats().dropped(DropReason.INVALID_INPUT.tag())).isEqualTo(1);
		assertThat(this.drops.messages(Level.WARN)).containsExactly(DROP);
	}

	@Test
	void withTheAdapterTheEventIsAccepted() {
		this.recorder.about(this.pod, Fabric8Objects.ADAPTER).normal("Started", "started");
		assertThat(this.broadcaster.stats().dropped(DropReason.INVALID_INPUT.tag())).isEqualTo(0);
		assertThat(this.broadcaster.stats().accepted()).isEqualTo(1);
		assertThat(this.drops.messages(Level.WARN)).isEmpty();
	}

	@Test
	void aSubclassOfAFabric8ModelIsRecognisedThroughItsSuperclass() {
		assertThat(Fabric8Hint.isFabric8(new Pod() {
		}.getClass())).isTrue();
		assertThat(Fabric8Hint.isFabric8(String.class)).isFalse();
	}

	@Test
	void withoutTheFabric8ModuleTheHintNamesTheDependency() {
		ClassLoader withoutTheModule = new ClassLoader(null) {
		};
		assertThat(Fabric8Hint.fix(withoutTheModule)).isEqualTo("add the dependency"
				+ " io.github.kubeevents:event-recorder-fabric8 and record it with recorder.about(object,"
				+ " io.github.kubeevents.fabric8.Fabric8Objects.ADAPTER)");
	}

}
