package io.github.kubeevents.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/** The namespace whose RBAC the recorder checks at startup: POD_NAMESPACE, else the service account's file. */
class OwnNamespaceTests {

	@TempDir
	Path serviceAccount;

	@Test
	void podNamespaceWins() throws Exception {
		Files.writeString(this.serviceAccount.resolve("namespace"), "from-file\n");
		assertThat(OwnNamespace.detect(new MockEnvironment().withProperty("POD_NAMESPACE", " shop "), this.serviceAccount))
			.isEqualTo("shop");
	}

	@Test
	void elseTheServiceAccountsNamespaceFile() throws Exception {
		Files.writeString(this.serviceAccount.resolve("namespace"), "orders\n");
		assertThat(OwnNamespace.detect(new MockEnvironment(), this.serviceAccount)).isEqualTo("orders");
	}

	@Test
	void elseNone() throws Exception {
		assertThat(OwnNamespace.detect(new MockEnvironment(), this.serviceAccount)).isNull();
		Files.writeString(this.serviceAccount.resolve("namespace"), "  \n");
		assertThat(OwnNamespace.detect(new MockEnvironment().withProperty("POD_NAMESPACE", ""), this.serviceAccount))
			.isNull();
	}

}
