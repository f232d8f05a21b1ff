import Link from "next/link";

export default function Forbidden() {
  return (
    <section className="panel" aria-labelledby="forbidden-title">
      <h1 id="forbidden-title">Not allowed</h1>
      <p>
        Your role does not include this page. Ask an admin if you need it.{" "}
        <Link href="/">Back to the fleet</Link>.
      </p>
    </section>
  );
}
