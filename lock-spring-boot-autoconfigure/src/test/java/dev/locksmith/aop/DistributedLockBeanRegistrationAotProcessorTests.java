package dev.locksmith.aop;

import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.GenerationContext;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationCode;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;

import dev.locksmith.annotation.DistributedLock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/** A bean with {@code @DistributedLock} methods keeps, in a native image, the methods the aspect finds by reflection. */
class DistributedLockBeanRegistrationAotProcessorTests {

	private final RuntimeHints hints = new RuntimeHints();

	@Test
	void registersTheFallbackForInvocationAndTheAnnotatedClassesForTheValidator() throws Exception {
		contribute(Wallet.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Wallet.class, "payLater")).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Wallet.class)).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Account.class)).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Wallet.class, "pay")).rejects(this.hints);
	}

	@Test
	void contributesNothingForABeanWithoutTheAnnotation() {
		assertThat(contribution(Account.Plain.class)).isNull();
	}

	private void contribute(Class<?> beanClass) {
		BeanRegistrationAotContribution contribution = contribution(beanClass);
		assertThat(contribution).isNotNull();
		GenerationContext generationContext = mock(GenerationContext.class);
		given(generationContext.getRuntimeHints()).willReturn(this.hints);
		contribution.applyTo(generationContext, mock(BeanRegistrationCode.class));
	}

	private static BeanRegistrationAotContribution contribution(Class<?> beanClass) {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.registerBeanDefinition("bean", new RootBeanDefinition(beanClass));
		return new DistributedLockBeanRegistrationAotProcessor()
			.processAheadOfTime(RegisteredBean.of(beanFactory, "bean"));
	}

	static class Account {

		@DistributedLock(key = "#id")
		public long balance(String id) {
			return 0;
		}

		static class Plain {

			public long balance(String id) {
				return 0;
			}

		}

	}

	static class Wallet extends Account {

		@DistributedLock(key = "#id", fallbackMethod = "payLater")
		public String pay(String id) {
			return "paid";
		}

		String payLater(String id) {
			return "later";
		}

	}

}
