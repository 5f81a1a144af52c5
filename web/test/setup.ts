// Every language's catalog loaded before the tests (the app loads each on first use).
import { loadAllLangs } from "../src/i18n";

await loadAllLangs();
