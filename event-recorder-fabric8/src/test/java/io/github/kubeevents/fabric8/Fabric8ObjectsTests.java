package io.github.kubeevents.fabric8;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.github.kubeevents.InvolvedObject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** fabric8 objects as event subjects: every field of client-go's reference, and a clear refusal without a name. */
class Fabric8ObjectsTests {

	@Test
	void referenceHasKindApiVersionNamespaceNameUidAndResourceVersion() {
		Pod pod = new PodBuilder().withNewMetadata()
			.withNamespace("ns")
			.withName("web-0")
			.withUid("uid-1")
			.withResourceVersion("42")
			.endMetadata()
			.build();
		assertThat(Fabric8Objects.ADAPTER.adapt(pod))
			.isEqualTo(new InvolvedObject("Pod", "v1", "ns", "web-0", "uid-1", "42", null));
	}

	@Test
	void aResourceWithoutANameCannotBeReferenced() {
		ConfigMap unnamed = new ConfigMapBuilder().withNewMetadata().withNamespace("ns").endMetadata().build();
		assertThatIllegalArgumentException().isThrownBy(() -> Fabric8Objects.reference(unnamed))
			.withMessage("a ConfigMap without metadata.name cannot be referenced");
	}

}
