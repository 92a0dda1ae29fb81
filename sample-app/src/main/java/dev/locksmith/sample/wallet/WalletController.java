package dev.locksmith.sample.wallet;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.springframework.format.annotation.DurationFormat;
import org.springframework.format.annotation.DurationFormat.Style;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The wallet over HTTP. */
@RestController
@RequestMapping("/accounts")
class WalletController {

	private final WalletService wallet;

	WalletController(WalletService wallet) {
		this.wallet = wallet;
	}

	@GetMapping
	List<Account> accounts() {
		return this.wallet.accounts();
	}

	@GetMapping("/{id}")
	Account account(@PathVariable String id) {
		return this.wallet.account(id);
	}

	@PostMapping("/{id}/deposit")
	Account deposit(@PathVariable String id, @RequestParam long cents,
			@RequestParam(defaultValue = "0ms") @DurationFormat(style = Style.SIMPLE) Duration thinkTime) {
		return this.wallet.deposit(id, cents, thinkTime);
	}

	@PostMapping("/{id}/withdraw")
	Account withdraw(@PathVariable String id, @RequestParam long cents) {
		return this.wallet.withdraw(id, cents);
	}

	@PostMapping("/transfer")
	List<Account> transfer(@RequestParam String from, @RequestParam String to, @RequestParam long cents) {
		return this.wallet.transfer(from, to, cents);
	}

	@GetMapping("/{id}/statement")
	CompletableFuture<Statement> statement(@PathVariable String id) {
		return this.wallet.statement(id);
	}

	@ExceptionHandler
	ResponseEntity<Map<String, String>> refused(WalletException ex) {
		HttpStatus status = switch (ex.reason()) {
			case UNKNOWN_ACCOUNT -> HttpStatus.NOT_FOUND;
			case INSUFFICIENT_FUNDS -> HttpStatus.UNPROCESSABLE_CONTENT;
			case STALE_LOCK -> HttpStatus.CONFLICT;
		};
		return ResponseEntity.status(status).body(Map.of("error", ex.getMessage()));
	}

}
